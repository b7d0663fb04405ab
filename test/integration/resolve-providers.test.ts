import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { emptyRecord } from '../../src/catalog/types.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { type FakeBook, type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

interface Body {
  status: 'found' | 'not_found';
  booklink_url?: string;
  title?: string;
  isbn?: string | null;
  search_url?: string;
}

/** Invented editions of public-domain books; each URL class gets a book only the providers know. */
const PROVIDER_BOOKS: FakeBook[] = [
  {
    isbn13: '9780990000020',
    title: 'Three Men in a Boat',
    authors: ['Jerome K. Jerome'],
    only: ['openlibrary'],
  },
  {
    isbn13: '9780990000037',
    title: 'The Secret Garden',
    authors: ['Frances Hodgson Burnett'],
    only: ['googlebooks'],
  },
  { isbn13: '9780990000044', title: 'Moonfleet', authors: ['J. Meade Falkner'], only: ['openlibrary'] },
  { isbn13: '9791090000155', title: 'Le Tour du monde en quatre-vingts jours', authors: ['Jules Verne'] },
  { isbn13: '9780990000105', title: 'The Scarlet Pimpernel', authors: ['Baroness Orczy'], only: ['itunes'] },
  { isbn13: '9780990000112', title: 'The Prisoner of Zenda', authors: ['Anthony Hope'] },
  { isbn13: '9780990000129', title: 'The Riddle of the Sands', authors: ['Erskine Childers'] },
  { isbn13: '9780990000136', title: 'The Man Who Was Thursday', authors: ['G. K. Chesterton'] },
  {
    isbn13: '9780990000051',
    title: 'The Thirty-Nine Steps',
    authors: ['John Buchan'],
    oclc: '1234567',
    only: ['openlibrary'],
  },
  {
    isbn13: '9780990000068',
    title: 'Kim',
    authors: ['Rudyard Kipling'],
    goodreads: '424242',
    // Another edition of the same work: the id must still name this edition, not that one.
    workIsbns: ['9780990000075'],
    only: ['openlibrary'],
  },
  {
    isbn13: '9780990000082',
    title: 'Lorna Doone',
    authors: ['R. D. Blackmore'],
    librarything: '77001',
    only: ['openlibrary'],
  },
  {
    isbn13: '9780990000099',
    title: 'The Moonstone',
    authors: ['Wilkie Collins'],
    appleId: 555001,
    only: ['itunes'],
  },
];

/** Every URL class of the ISBN scan, store ids and fallbacks, through real HTTP and the fake providers. */
describeEachDialect('resolve through the providers', (context) => {
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
    for (const book of PROVIDER_BOOKS) fake.addBook(book);
    await addCatalogEntry(context.store(), {
      isbn13: '9780990000013',
      isbn10: '099000001X',
      title: 'The Wind in the Willows',
      authors: ['Kenneth Grahame'],
    });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('resolves an ISBN anywhere in a URL, local or provider-only, on search pages and unknown hosts', async () => {
    const cases: [string, string][] = [
      ['https://www.amazon.com/s?i=stripbooks&field-isbn=099000001X', '9780990000013'],
      ['https://www.waterstones.com/books/search/term/0990000044', '9780990000044'],
      ['https://isbndb.com/search/all?query=9780990000020', '9780990000020'],
      ['https://app.thestorygraph.com/browse?search_term=9791090000155', '9791090000155'],
      ['https://www.whsmith.co.uk/pws/ProductDetails.ice?ProductID=9780990000037', '9780990000037'],
      ['https://www.dymocks.com.au/three-men-in-a-boat-by-jerome-k-jerome-9780990000020', '9780990000020'],
      ['https://www.powells.com/book/-9780990000037', '9780990000037'],
      ['https://www.booksamillion.com/p/9780990000044', '9780990000044'],
      ['https://openlibrary.org/isbn/9780990000020.json', '9780990000020'],
      ['https://a-bookshop-nobody-knows.example/item/978-0-9900000-2-0', '9780990000020'],
    ];
    for (const [url, isbn] of cases) {
      const body = await api(url);
      assert.equal(body.status, 'found', url);
      assert.equal(body.isbn, isbn, url);
    }
    // The reader's /resolve takes the same path to the same book page.
    const redirect = await t.get(
      `/resolve?${new URLSearchParams({ url: 'https://isbndb.com/search/all?query=9780990000020' })}`,
    );
    assert.equal(redirect.status, 302);
    assert.match(redirect.headers.get('location') ?? '', /^\/book\/three-men-in-a-boat/);
  });

  it('keeps what is not an ISBN out: a DVD, a NOOK id, an Audible ASIN on Amazon', async () => {
    fake.addBook({ isbn13: '9781603935609', title: 'Not This Book', authors: ['Nobody'] });
    for (const url of [
      'https://www.amazon.com/Moonfleet-DVD/dp/B00005JKZY?keywords=9780990000044',
      'https://www.barnesandnoble.com/w/moonfleet-j-meade-falkner/1100000000?ean=2940000000000',
      'https://www.amazon.com/Not-This-Book-Audible-Audiobook/dp/1603935606',
    ]) {
      const body = await api(url);
      assert.notEqual(body.isbn, '9780990000044', url);
      assert.notEqual(body.isbn, '9781603935609', url);
    }
  });

  it('names editions by store ids through the providers that know them', async () => {
    const worldcat = await api('https://search.worldcat.org/title/1234567');
    assert.equal(worldcat.isbn, '9780990000051');
    assert.ok(fake.requests('openlibrary').some((path) => path.includes('bibkeys=OCLC%3A1234567')));
    assert.equal((await api('https://www.worldcat.org/oclc/1234567')).isbn, '9780990000051');
    // A number the Books API lacks is still found through the search index's `oclc:` field.
    fake.addBook({
      isbn13: '9780990000174',
      title: 'The Woman in White',
      authors: ['Wilkie Collins'],
      oclc: '7654321',
      oclcSearchOnly: true,
      only: ['openlibrary'],
    });
    assert.equal(
      (await api('https://www.worldcat.org/title/the-woman-in-white/oclc/7654321')).isbn,
      '9780990000174',
    );
    assert.ok(fake.requests('openlibrary').some((path) => path.includes('q=oclc%3A7654321')));

    const goodreads = await api('https://www.goodreads.com/book/show/424242.Kim');
    assert.equal(goodreads.isbn, '9780990000068');
    assert.ok(fake.requests('openlibrary').some((path) => path.includes('q=id_goodreads%3A424242')));

    // A work of several editions whose matching edition the index does not name: the book is made
    // without an ISBN rather than from another edition's.
    fake.addBook({
      isbn13: '9780990000181',
      title: 'Captains Courageous',
      authors: ['Rudyard Kipling'],
      goodreads: '424243',
      workIsbns: ['9780990000198'],
      searchEditions: false,
      only: ['openlibrary'],
    });
    const unnamed = await api('https://www.goodreads.com/book/show/424243.Captains_Courageous');
    assert.deepEqual([unnamed.status, unnamed.title, unnamed.isbn], ['found', 'Captains Courageous', null]);

    const librarything = await api('https://www.librarything.com/work/77001');
    assert.equal(librarything.isbn, '9780990000082');
    assert.ok(fake.requests('openlibrary').some((path) => path.includes('q=id_librarything%3A77001')));

    const apple = await api('https://books.apple.com/us/book/the-moonstone/id555001');
    assert.deepEqual([apple.status, apple.title], ['found', 'The Moonstone']);
    assert.ok(fake.requests('itunes').some((path) => path.startsWith('/itunes/lookup?id=555001')));

    // Ids no provider knows stay not found, with their words for the search.
    assert.equal((await api('https://www.goodreads.com/book/show/999001.Unknown_Book')).status, 'not_found');
    assert.equal((await api('https://search.worldcat.org/title/999002')).status, 'not_found');
  });

  it('finds the book an Apple audiobook link made before audiobooks had an id scheme of their own, asking no provider', async () => {
    // Until 0034 an audiobook's Apple id was saved as apple_books; the same link must still name that book.
    const saved = await t.services.creator.createFromRecord({
      ...emptyRecord('itunes', 'The Woman in White'),
      authors: ['Wilkie Collins'],
      format: 'audiobook',
      identifiers: { apple_books: '777001' },
    });
    const asked = fake.requestCount('itunes');
    const found = await api('https://books.apple.com/gb/audiobook/the-woman-in-white-unabridged/id777001');
    assert.deepEqual([found.status, found.title], ['found', 'The Woman in White']);
    assert.match(found.booklink_url ?? '', new RegExp(`/${saved.slug}$`));
    assert.equal(fake.requestCount('itunes'), asked);
  });

  it('answers ISBN input of the client API from the providers too', async () => {
    const response = await fetch(`${t.baseUrl}/api/v1/clients/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (X11) Firefox/120.0' },
      body: JSON.stringify({ input: '978-0-9900000-4-4' }),
    });
    const body = (await response.json()) as Body & { input_kind: string };
    assert.deepEqual([body.status, body.isbn, body.input_kind], ['found', '9780990000044', 'isbn']);
  });
});

describeEachDialect('resolve when providers are down or slow', (context) => {
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
      PROVIDER_TIMEOUT_MS: '300',
      RATE_LIMIT_ANON: '10000',
    });
    for (const book of PROVIDER_BOOKS) fake.addBook(book);
    await addCatalogEntry(context.store(), {
      isbn13: '9780990000013',
      title: 'The Wind in the Willows',
      authors: ['Kenneth Grahame'],
      identifiers: { goodreads: '5555' },
    });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('degrades to the local answer, never to an error', async () => {
    fake.setFailure('openlibrary', { hang: true });
    fake.setFailure('googlebooks', { status: 503 });
    fake.setFailure('itunes', { delayMs: 2000 });
    const local = await api('https://isbndb.com/search/all?query=9780990000013');
    assert.equal(local.isbn, '9780990000013');
    const byId = await api('https://www.goodreads.com/book/show/5555');
    assert.equal(byId.isbn, '9780990000013');
    for (const url of [
      'https://www.booksamillion.com/p/9780990000044',
      'https://search.worldcat.org/title/1234567',
      'https://www.hive.co.uk/Product/Anthony-Hope/The-Prisoner-of-Zenda/55501',
    ]) {
      const body = await api(url);
      assert.equal(body.status, 'not_found', url);
    }
  });
});
