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

/**
 * Title words in the links of stores, publishers' shops and hosts no table knows, and every
 * catalogue link form that carries an identifier a provider maps (issue 46, points 1 and 2).
 */
describeEachDialect('resolve title words and catalogue link forms', (context) => {
  let fake: FakeProviders;
  let t: TestApp;
  const api = async (url: string): Promise<Body> => {
    const response = await t.get(`/api/v1/resolve?${new URLSearchParams({ url })}`);
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
    const local: [string, string, string][] = [
      ['9780990001003', 'The Road', 'Cormac McCarthy'],
      ['9780990001010', 'The Alchemist', 'Paulo Coelho'],
      ['9780990001027', 'The Hobbit', 'J.R.R. Tolkien'],
      ['9780990001034', 'Der Hobbit', 'J.R.R. Tolkien'],
    ];
    for (const [isbn13, title, author] of local) {
      await addCatalogEntry(context.store(), { isbn13, title, authors: [author], popularity: 100 });
    }
    fake.addBook({
      isbn13: '9780990001041',
      title: 'Dracula',
      authors: ['Bram Stoker'],
      only: ['openlibrary'],
    });
    for (const [isbn13, title, volume] of [
      ['9780990001119', 'Catching Fire', 2],
      ['9780990001126', 'Mockingjay', 3],
    ] as const) {
      await addCatalogEntry(context.store(), {
        isbn13,
        title,
        authors: ['Suzanne Collins'],
        identifiers: { series: `The Hunger Games, #${volume}` },
        popularity: 100,
      });
    }
    // Google prints the series in this volume's subtitle; no other source knows the book.
    fake.addBook({
      isbn13: '9780990001133',
      title: 'The Silver Chair',
      subtitle: 'The Chronicles of Narnia, Book 4',
      authors: ['C. S. Lewis'],
      only: ['googlebooks'],
    });
    fake.addBook({ isbn13: '9780990001089', title: 'The Moonstone', authors: ['Wilkie Collins'] });
    fake.addBook({
      isbn13: '9780990001096',
      title: 'The Man in the Iron Mask',
      authors: ['Alexandre Dumas'],
    });
    fake.addBook({
      isbn13: '9780990001058',
      title: 'The Thirty-Nine Steps',
      authors: ['John Buchan'],
      goodreads: '9900777',
      librarything: '7700777',
      oclc: '8800777',
      only: ['openlibrary'],
    });
    // Only the search index knows this edition's OCLC numbers, the second one included.
    fake.addBook({
      isbn13: '9780990001102',
      title: 'Kidnapped',
      authors: ['Robert Louis Stevenson'],
      oclc: '8800888',
      moreOclc: ['8800889'],
      oclcSearchOnly: true,
      only: ['openlibrary'],
    });
    fake.addBook({
      isbn13: '9780990001065',
      title: 'Northanger Abbey',
      authors: ['Jane Austen'],
      googleId: 'nOrThAnGeR77',
      only: ['googlebooks'],
    });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('finds the book from the title words of store, publisher and unknown-shop links', async () => {
    const cases: [string, string][] = [
      ['https://bookshop.org/p/books/the-road-cormac-mccarthy/6543210', '9780990001003'],
      ['https://www.penguinrandomhouse.com/books/12345/the-road-by-cormac-mccarthy/', '9780990001003'],
      [
        'https://play.google.com/store/books/details/Cormac_McCarthy_The_Road?id=xXrOAAAAQBAJ',
        '9780990001003',
      ],
      [
        'https://www.waterstones.com/waterstonesweb/products/paulo+coelho/the+alchemist/5123456/',
        '9780990001010',
      ],
      ['https://www.harpercollins.com/products/the-alchemist-paulo-coelho', '9780990001010'],
      // The German title's article names the German edition of the work.
      [
        'https://www.hugendubel.de/de/taschenbuch/j_r_r_tolkien-der_hobbit-4508219-produkt-details.html',
        '9780990001034',
      ],
      // Books only the providers know: a one-word title after its author, "A Novel", dropped "in the".
      ['https://www.hachettebookgroup.com/titles/bram-stoker/dracula/', '9780990001041'],
      ['https://www.everand.com/book/576543210/The-Moonstone-A-Novel', '9780990001089'],
      ['https://www.amazon.co.uk/Man-Iron-Mask-Alexandre-Dumas-ebook/dp/B0IRONMASK', '9780990001096'],
      // A series and volume beside the title, in the catalog's series note or Google's subtitle.
      ['https://www.amazon.com/Catching-Fire-Hunger-Games-Book-ebook/dp/B002MQYOFW', '9780990001119'],
      [
        'https://bookshop.org/p/books/mockingjay-the-hunger-games-book-3-suzanne-collins/1234599',
        '9780990001126',
      ],
      ['https://www.kobo.com/us/en/ebook/the-silver-chair-the-chronicles-of-narnia-book-4', '9780990001133'],
    ];
    for (const [url, isbn] of cases) {
      const body = await api(url);
      assert.equal(body.status, 'found', url);
      assert.equal(body.isbn, isbn, url);
    }
  });

  it('reads every WorldCat, Goodreads, LibraryThing and Google Play form a provider maps', async () => {
    const cases: [string, string][] = [
      ['https://mylib.on.worldcat.org/v2/oclc/8800777', '9780990001058'],
      // The edition's second OCLC number, which only the search index holds, first.
      ['https://search.worldcat.org/title/8800889', '9780990001102'],
      ['https://mylib.on.worldcat.org/search/detail/8800888', '9780990001102'],
      ['https://search.worldcat.org/search?q=no:8800777', '9780990001058'],
      ['https://www.goodreads.com/en/book/show/9900777', '9780990001058'],
      ['https://www.librarything.com/work/7700777/details/123456', '9780990001058'],
      ['https://play.google.com/store/books/details?id=nOrThAnGeR77', '9780990001065'],
    ];
    for (const [url, isbn] of cases) {
      const body = await api(url);
      assert.equal(body.status, 'found', url);
      assert.equal(body.isbn, isbn, url);
    }
    assert.ok(fake.requests('openlibrary').some((path) => /q=oclc%3A8800889|q=oclc:8800889/.test(path)));
  });

  it('never answers a near miss with a wrong book, and searches its words instead', async () => {
    const cases: [string, string | null][] = [
      [
        'https://bookshop.org/p/books/the-road-to-wigan-pier-george-orwell/7654321',
        'the road to wigan pier george orwell',
      ],
      [
        'https://www.penguinrandomhouse.com/books/99999/the-road-less-traveled-by-m-scott-peck/',
        'the road less traveled by m scott peck',
      ],
      [
        'https://www.harpercollins.com/products/the-alchemist-graphic-novel-paulo-coelho',
        'the alchemist graphic novel paulo coelho',
      ],
      ['https://www.hachettebookgroup.com/titles/jane-doe/dracula/', 'jane doe dracula'],
      // Another volume's number, or a series and number without the title, names no book here.
      [
        'https://www.barnesandnoble.com/w/catching-fire-the-hunger-games-book-3-suzanne-collins/1100123456',
        'catching fire the hunger games book 3 suzanne collins',
      ],
      [
        'https://bookshop.org/p/books/the-hunger-games-book-2-suzanne-collins/1234601',
        'the hunger games book 2 suzanne collins',
      ],
      ['https://blog.example.org/2024/03/why-i-reread-the-road', 'why i reread the road'],
      // What an unknown shop's search box was asked is searched, never read as one book.
      ['https://www.example.com/search?q=the+road', 'the road'],
      ['https://mylib.on.worldcat.org/v2/oclc/8800999', '8800999'],
    ];
    for (const [url, words] of cases) {
      const body = await api(url);
      assert.equal(body.status, 'not_found', url);
      assert.equal(body.search_url, `${BASE}/search?${new URLSearchParams({ q: words ?? '' })}`, url);
    }
  });
});
