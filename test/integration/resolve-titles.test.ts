import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { BOT_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

interface Body {
  status: 'found' | 'not_found';
  title?: string;
  isbn?: string | null;
  search_url?: string;
}

const BASE = 'http://booklink.test';

/** Title-and-author URLs (no ISBN, no id a source knows) of books only the providers know. */
describeEachDialect('resolve title-and-author URLs', (context) => {
  let fake: FakeProviders;
  let t: TestApp;
  const api = async (url: string, ua?: string): Promise<Body> => {
    const response = await t.get(
      `/api/v1/resolve?${new URLSearchParams({ url })}`,
      ua ? { 'user-agent': ua } : {},
    );
    assert.equal(response.status, 200, url);
    return (await response.json()) as Body;
  };

  before(async () => {
    fake = await startFakeProviders();
    t = await startTestApp(context.store(), {
      ...fake.env,
      PROVIDERS: 'local,openlibrary,googlebooks,itunes',
      RATE_LIMIT_ANON: '10000',
    });
    fake.addBook({ isbn13: '9780990000105', title: 'The Scarlet Pimpernel', authors: ['Baroness Orczy'] });
    fake.addBook({ isbn13: '9780990000112', title: 'The Prisoner of Zenda', authors: ['Anthony Hope'] });
    fake.addBook({
      isbn13: '9780990000129',
      title: 'The Riddle of the Sands',
      authors: ['Erskine Childers'],
      only: ['googlebooks'],
    });
    fake.addBook({
      isbn13: '9780990000136',
      title: 'The Man Who Was Thursday',
      authors: ['G. K. Chesterton'],
    });
    fake.addBook({
      isbn13: '9780990000044',
      title: 'Moonfleet',
      authors: ['J. Meade Falkner'],
      only: ['openlibrary'],
    });
    fake.addBook({ isbn13: '9780990000020', title: 'Three Men in a Boat', authors: ['Jerome K. Jerome'] });
    // Two books share a title: a slug naming only the title names neither.
    fake.addBook({ isbn13: '9780990000143', title: 'The Lost World', authors: ['Arthur Conan Doyle'] });
    fake.addBook({ isbn13: '9780990000150', title: 'The Lost World', authors: ['Michael Crichton'] });
    await addCatalogEntry(context.store(), {
      isbn13: '9780990000013',
      title: 'The Wind in the Willows',
      authors: ['Kenneth Grahame'],
    });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('reads title and author from the slug of each store and asks the providers', async () => {
    const cases: [string, string][] = [
      ['https://bookshop.org/p/books/the-scarlet-pimpernel-baroness-orczy/123456', '9780990000105'],
      ['https://www.hive.co.uk/Product/Anthony-Hope/The-Prisoner-of-Zenda/55501', '9780990000112'],
      [
        'https://www.barnesandnoble.com/w/the-riddle-of-the-sands-erskine-childers/1100200300',
        '9780990000129',
      ],
      ['https://www.amazon.com/Man-Who-Was-Thursday-Chesterton/dp/B0ABCDEFGH', '9780990000136'],
      ['https://www.thriftbooks.com/w/moonfleet_j-meade-falkner/98765/', '9780990000044'],
      ['https://www.kobo.com/us/en/ebook/three-men-in-a-boat-2', '9780990000020'],
      // The local catalog answers first, the same way.
      ['https://www.kobo.com/gb/en/ebook/the-wind-in-the-willows-kenneth-grahame', '9780990000013'],
    ];
    for (const [url, isbn] of cases) {
      const body = await api(url);
      assert.equal(body.status, 'found', url);
      assert.equal(body.isbn, isbn, url);
    }
  });

  it('reads the title of an Audible page whose numeric id no source knows as an ISBN', async () => {
    // 0990000990 passes the ISBN-10 check, but no source holds that "ISBN": the words decide.
    const body = await api('https://www.audible.com/pd/The-Man-Who-Was-Thursday-Audiobook/0990000990');
    assert.equal(body.isbn, '9780990000136');
  });

  it('never answers a wrong book: extra words, a different author, two books of one title', async () => {
    const urls = [
      'https://www.barnesandnoble.com/w/the-riddle-of-the-sands-companion-jane-doe/1100200301',
      'https://www.hive.co.uk/Product/Jane-Doe/The-Prisoner-of-Zenda/55502',
      'https://www.kobo.com/us/en/ebook/the-lost-world',
      'https://bookshop.org/p/books/the-scarlet-pimpernel-returns-baroness-orczy/123457',
    ];
    for (const url of urls) assert.equal((await api(url)).status, 'not_found', url);
    const both = await api('https://www.kobo.com/us/en/ebook/the-lost-world-michael-crichton');
    assert.equal(both.isbn, '9780990000150');
    // Now the local catalog holds one "The Lost World": the title-only slug still names neither,
    // because the providers know another book of that title.
    assert.equal((await api('https://www.kobo.com/us/en/ebook/the-lost-world')).status, 'not_found');
  });

  it('never creates a book for a bot, and asks the providers title by title only for people', async () => {
    fake.addBook({ isbn13: '9780990000167', title: 'Erewhon', authors: ['Samuel Butler'] });
    const body = await api('https://bookshop.org/p/books/erewhon-samuel-butler/42', BOT_UA);
    assert.equal(body.status, 'not_found');
    assert.ok(!fake.requests('openlibrary').some((path) => /title=erewhon&author=/.test(path)));
    const saved = await context
      .store()
      .db.selectFrom('books')
      .select('id')
      .where('isbn13', '=', '9780990000167')
      .execute();
    assert.equal(saved.length, 0);
  });
});

/** A link that names no book lands on a search that says why, with the link's words searched. */
describeEachDialect('resolve dead ends', (context) => {
  let t: TestApp;
  const follow = async (url: string) => {
    const response = await t.get(`/resolve?${new URLSearchParams({ url })}`);
    assert.equal(response.status, 302, url);
    return {
      location: response.headers.get('location') ?? '',
      cookie: response.headers.get('set-cookie') ?? '',
    };
  };

  before(async () => {
    t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '10000' });
    await addCatalogEntry(context.store(), {
      isbn13: '9780990000013',
      title: 'The Wind in the Willows',
      authors: ['Kenneth Grahame'],
    });
  });
  after(async () => {
    await t.close();
  });

  it('says why on the search page and keeps the words searched', async () => {
    const cases: [string, string, string][] = [
      [
        'https://a-shop-nobody-knows.example/books/the-wind-in-the-willows-illustrated',
        'unknown_shop',
        'the wind in the willows illustrated',
      ],
      ['https://www.amazon.com/s?k=willows+grahame&i=stripbooks', 'not_book', 'willows grahame'],
      ['https://www.kobo.com/us/en/ebook/a-volume-nobody-holds', 'no_match', 'a volume nobody holds'],
    ];
    for (const [url, reason, words] of cases) {
      const { location, cookie } = await follow(url);
      assert.equal(location, `/search?${new URLSearchParams({ q: words })}`, url);
      // The reason, then the host of the shop whose link it read (issue 44).
      const host = new URL(url).hostname.replace(/^www\./, '');
      assert.match(cookie, new RegExp(`bl_resolve=${reason}%20${host.replaceAll('.', '\\.')};`), url);
      const page = await t.get(location, { cookie: cookie.split(';')[0] ?? '' });
      assert.equal(page.status, 200, url);
      const html = await page.text();
      assert.match(html, new RegExp(`data-resolve-reason="${reason}"`), url);
      assert.ok(html.includes(`data-resolve-store="${host}"`), url);
      assert.ok(html.includes(`We read a link from ${host}`), url);
      assert.match(html, /data-result-count="\d+"/, url);
      assert.match(html, /search--header/, url);
      // Shown once: the page forgets the reason.
      assert.match(page.headers.get('set-cookie') ?? '', /bl_resolve=;.*Max-Age=0/, url);
    }
    const api = await t.get(
      `/api/v1/resolve?${new URLSearchParams({ url: 'https://a-shop-nobody-knows.example/books/the-wind-in-the-willows-illustrated' })}`,
    );
    assert.deepEqual(await api.json(), {
      status: 'not_found',
      search_url: `${BASE}/search?q=the+wind+in+the+willows+illustrated`,
    });
  });

  it('falls back to the home page only when the link holds no words', async () => {
    assert.equal((await follow('https://a-shop-nobody-knows.example/')).location, '/');
    // A plain search with no pasted link shows no reason.
    const page = await t.get('/search?q=willows');
    assert.doesNotMatch(await page.text(), /data-resolve-reason/);
  });
});
