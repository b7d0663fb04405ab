import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

interface Body {
  status: 'found' | 'not_found';
  title?: string;
  isbn?: string | null;
  booklink_url?: string;
}

/**
 * A provider's answer, once it became a book, is filed in the catalog with every identifier it
 * carried (the identifier index), so resolving any of them again asks no provider: not the URL that
 * made the book, and not another identifier of the same edition the book itself does not hold.
 */
describeEachDialect('provider answers in the identifier index', (context) => {
  let fake: FakeProviders;
  let t: TestApp;
  const api = async (url: string): Promise<Body> => {
    const response = await t.get(`/api/v1/resolve?${new URLSearchParams({ url })}`);
    assert.equal(response.status, 200, url);
    return (await response.json()) as Body;
  };
  const indexOf = async (entryKey: string) =>
    context
      .store()
      .db.selectFrom('catalog_identifiers as i')
      .innerJoin('catalog_entries as c', 'c.id', 'i.entry_id')
      .select(['c.source', 'i.scheme', 'i.value'])
      .where('c.entry_key', '=', entryKey)
      .orderBy('i.scheme')
      .orderBy('i.value')
      .execute();
  const bookCount = async () =>
    Number(
      (
        await context
          .store()
          .db.selectFrom('books')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  before(async () => {
    fake = await startFakeProviders();
    t = await startTestApp(context.store(), {
      ...fake.env,
      PROVIDERS: 'local,openlibrary,googlebooks,itunes',
      PROVIDER_TIMEOUT_MS: '500',
      RATE_LIMIT_ANON: '10000',
    });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('answers a Google volume, both OCLC numbers and the other ids of a provider-made book locally', async () => {
    fake.addBook({
      isbn13: '9780990000204',
      isbn10: '0990000206',
      title: 'The Hound of the Baskervilles',
      authors: ['Arthur Conan Doyle'],
      googleId: 'hNdVaAAAQBAJ',
      olEdition: 'OL9100001M',
      olWork: 'OL9100001W',
      oclc: '3000001',
      moreOclc: ['3000002'],
      lccn: '2001000001',
      goodreads: '910001',
      librarything: '820001',
      moreIsbns: ['9780990000211'],
    });
    const first = await api('https://books.google.com/books?id=hNdVaAAAQBAJ');
    assert.deepEqual([first.status, first.isbn], ['found', '9780990000204']);
    assert.ok(fake.requests('googlebooks').some((path) => path.includes('/volumes/hNdVaAAAQBAJ')));

    const rows = await indexOf('isbn:9780990000204');
    assert.ok(rows.every((row) => row.source === 'provider'));
    const pairs = rows.map((row) => `${row.scheme}=${row.value}`);
    for (const pair of [
      'google_volume=hNdVaAAAQBAJ',
      'goodreads=910001',
      'isbn10=0990000206',
      'isbn13=9780990000204',
      'isbn13=9780990000211',
      'lccn=2001000001',
      'librarything=820001',
      'oclc=3000001',
      'oclc=3000002',
      'ol_edition=OL9100001M',
      'ol_work=OL9100001W',
    ]) {
      assert.ok(pairs.includes(pair), `${pair} in ${pairs.join(', ')}`);
    }

    const asked = fake.requestCount();
    const books = await bookCount();
    for (const url of [
      'https://books.google.com/books?id=hNdVaAAAQBAJ',
      // The edition's second OCLC number: only the identifier index knows it, not the saved book.
      'https://search.worldcat.org/title/3000002',
      'https://www.worldcat.org/oclc/3000001',
      'https://www.goodreads.com/book/show/910001.The_Hound_of_the_Baskervilles',
      'https://www.librarything.com/work/820001',
      'https://openlibrary.org/books/OL9100001M/The_Hound_of_the_Baskervilles',
    ]) {
      const body = await api(url);
      assert.deepEqual(
        [body.status, body.isbn, body.booklink_url],
        ['found', '9780990000204', first.booklink_url],
        url,
      );
    }
    assert.equal(fake.requestCount(), asked, 'no provider was asked the second time');
    assert.equal(await bookCount(), books, 'no second book');

    // The edition's other ISBN is in the index too: its book is made from the filed answer.
    const other = await t.get('/isbn/9780990000211');
    assert.equal(other.status, 302);
    assert.equal(fake.requestCount(), asked, 'the second ISBN asked no provider');
  });

  it('answers the identifiers of a book made at /isbn/ locally, with every provider down', async () => {
    fake.addBook({
      isbn13: '9780990000303',
      title: 'The Lost World',
      authors: ['Arthur Conan Doyle'],
      googleId: 'lWdVaAAAQBAJ',
      oclc: '3000011',
      moreOclc: ['3000012'],
      only: ['openlibrary', 'googlebooks'],
    });
    const made = await t.get('/isbn/9780990000303');
    assert.equal(made.status, 302);
    const asked = fake.requestCount();
    // Every provider hangs from now on: an answer can only come from the database.
    for (const service of ['openlibrary', 'googlebooks', 'itunes'] as const)
      fake.setFailure(service, { hang: true });
    try {
      for (const url of [
        'https://books.google.com/books?id=lWdVaAAAQBAJ',
        'https://search.worldcat.org/title/3000012',
        'https://www.worldcat.org/oclc/3000011',
      ]) {
        const body = await api(url);
        assert.deepEqual([body.status, body.isbn], ['found', '9780990000303'], url);
      }
    } finally {
      for (const service of ['openlibrary', 'googlebooks', 'itunes'] as const) fake.setFailure(service, null);
    }
    assert.equal(fake.requestCount(), asked);
  });

  it('files an edition without an ISBN, and finds its book again by another of its ids', async () => {
    fake.addBook({
      isbn13: '9780990000402',
      withoutIsbn: true,
      title: 'The Poison Belt',
      authors: ['Arthur Conan Doyle'],
      olEdition: 'OL9100003M',
      oclc: '3000021',
      moreOclc: ['3000022'],
      only: ['openlibrary'],
    });
    const first = await api('https://openlibrary.org/books/OL9100003M');
    assert.deepEqual([first.status, first.title, first.isbn], ['found', 'The Poison Belt', null]);
    const pairs = (await indexOf('openlibrary:OL9100003M')).map((row) => `${row.scheme}=${row.value}`);
    assert.ok(pairs.includes('oclc=3000022'), pairs.join(', '));

    const asked = fake.requestCount();
    const books = await bookCount();
    const again = await api('https://search.worldcat.org/title/3000022');
    assert.deepEqual([again.status, again.booklink_url], ['found', first.booklink_url]);
    assert.equal(fake.requestCount(), asked);
    assert.equal(await bookCount(), books, 'the entry found the book it became, not a new one');
  });

  it('files an Apple Books answer under its store id', async () => {
    fake.addBook({
      isbn13: '9780990000501',
      title: 'The Land of Mist',
      authors: ['Arthur Conan Doyle'],
      appleId: 555301,
      only: ['itunes'],
    });
    const first = await api('https://books.apple.com/us/book/the-land-of-mist/id555301');
    assert.equal(first.status, 'found');
    const pairs = (await indexOf('provider:apple_books:555301')).map((row) => `${row.scheme}=${row.value}`);
    assert.deepEqual(pairs, ['apple_books=555301']);
    const asked = fake.requestCount();
    assert.equal(
      (await api('https://books.apple.com/us/book/the-land-of-mist/id555301')).booklink_url,
      first.booklink_url,
    );
    assert.equal(fake.requestCount(), asked);
  });
});
