import assert from 'node:assert/strict';
import { after, before, beforeEach, it } from 'node:test';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry, inventedIsbn } from '../support/factories.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

interface SearchBody {
  status: string;
  results: Array<{ title: string; authors: string[]; isbn: string | null }>;
}

interface ResolveBody {
  status: 'found' | 'not_found';
  booklink_url?: string;
  isbn?: string | null;
}

/**
 * Quirks of the real providers' answers, through real HTTP against the fake providers, which now
 * send them as the real services do: editions listing only an ISBN-10, stub works without ISBN or
 * edition, volumes sharing their work's title, unordered language and ISBN lists, Japanese titles.
 */
describeEachDialect('the real providers’ quirks', (context) => {
  let fake: FakeProviders;
  let t: TestApp;
  const search = async (q: string) => {
    const response = await t.get(`/api/v1/search?q=${encodeURIComponent(q)}&limit=5`);
    assert.equal(response.status, 200);
    return (await response.json()) as SearchBody;
  };

  before(async () => {
    fake = await startFakeProviders();
    t = await startTestApp(context.store(), {
      ...fake.env,
      PROVIDERS: 'local,openlibrary,googlebooks,itunes',
      // The fakes answer at once; the budget only has to outlast a loaded test machine.
      PROVIDER_TIMEOUT_MS: '1500',
      RATE_LIMIT_ANON: '10000',
    });
    // The first search reads the spelling vocabulary and prepares its statements: done once here, so
    // that no test's provider budget (1.5 s at most) is spent on it on a loaded machine.
    await search('warm up');
  });
  beforeEach(() => fake.reset());
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('makes one book of an Open Library edition that lists only its ISBN-10, by either ISBN', async () => {
    fake.addBook({
      isbn13: '9780140449136',
      isbn10: '0140449132',
      isbn10Only: true,
      olEdition: 'OL7034567M',
      title: 'The Quiet Orchard',
      authors: ['Mara Linden'],
      only: ['openlibrary'],
    });
    const url = 'https://openlibrary.org/books/OL7034567M/The_Quiet_Orchard';
    const resolved = await t.get(`/api/v1/resolve?${new URLSearchParams({ url })}`, {
      'user-agent': HUMAN_UA,
    });
    const body = (await resolved.json()) as ResolveBody;
    assert.equal(body.status, 'found');
    assert.equal(body.isbn, '9780140449136', 'the ISBN-13 is derived from the ISBN-10');
    const page = new URL(body.booklink_url ?? '').pathname;
    for (const isbn of ['9780140449136', '0140449132']) {
      const visit = await t.get(`/isbn/${isbn}`, { 'user-agent': HUMAN_UA });
      assert.equal(visit.status, 302, isbn);
      assert.equal(visit.headers.get('location')?.split('?')[0], page, `${isbn} names the same book`);
    }
  });

  it('puts a stub work (edition_count 0, no ISBN) behind the real one', async () => {
    fake.addBook({
      isbn13: inventedIsbn(9101),
      withoutIsbn: true,
      editionCount: 0,
      cover: false,
      olWork: 'OL39000001W',
      title: 'The Salt Road',
      only: ['openlibrary'],
    });
    fake.addBook({
      isbn13: inventedIsbn(9102),
      title: 'The Salt Road',
      authors: ['Ines Varga'],
      publishedDate: '2011',
      only: ['openlibrary'],
    });
    const body = await search('the salt road');
    assert.equal(body.results[0]?.isbn, inventedIsbn(9102));
  });

  it('tells a volume that shares its work’s title apart by its subtitle', async () => {
    const whole = inventedIsbn(9201);
    const volume = inventedIsbn(9202);
    fake.addBook({
      isbn13: whole,
      title: 'The Lord of the Rings',
      authors: ['J. R. R. Tolkien'],
      olWork: 'OL27448W',
      editionCount: 120,
      only: ['openlibrary'],
    });
    // Open Library files this volume as a work of its own, the whole work's title with a subtitle.
    fake.addBook({
      isbn13: volume,
      title: 'The Lord of the Rings',
      subtitle: 'The Return of the King',
      authors: ['J. R. R. Tolkien'],
      olWork: 'OL27479W',
      editionCount: 300,
      only: ['openlibrary'],
    });
    assert.equal((await search('the lord of the rings')).results[0]?.isbn, whole);
    assert.equal((await search('the lord of the rings the return of the king')).results[0]?.isbn, volume);
  });

  it('answers the edition in the query’s language, not the first of the work’s unordered lists', async () => {
    const english = inventedIsbn(9301);
    fake.addBook({
      isbn13: english,
      title: 'The Salt Road',
      authors: ['Ines Varga'],
      language: 'en',
      // The German translation's ISBN comes first in the work's `isbn`, its language in `language`.
      translations: [{ isbn13: inventedIsbn(9302), language: 'de' }],
      only: ['openlibrary'],
    });
    assert.equal((await search('salt road varga')).results[0]?.isbn, english);
  });

  it('asks the providers for a Japanese title whole and finds it', async () => {
    fake.addBook({
      isbn13: inventedIsbn(9401),
      title: '消極性デザイン宣言',
      authors: ['栗原一貴'],
      language: 'ja',
      only: ['googlebooks'],
    });
    const body = await search('消極性デザイン宣言');
    assert.equal(body.results[0]?.isbn, inventedIsbn(9401));
    const asked = fake.requests('googlebooks').map((path) => new URL(path, 'http://x').searchParams.get('q'));
    assert.ok(asked.includes('消極性デザイン宣言'), asked.join(', '));
  });

  it('finds Japanese and Korean titles in the local catalog as typed, the index and the query folded alike', async () => {
    await addCatalogEntry(context.store(), {
      isbn13: inventedIsbn(9601),
      title: '消極性デザイン宣言',
      authors: ['栗原一貴'],
      popularity: 100,
    });
    await addCatalogEntry(context.store(), {
      isbn13: inventedIsbn(9602),
      title: '채식주의자',
      authors: ['한강'],
      popularity: 100,
    });
    // Typed with the voiced marks as separate characters, as some input methods and PDFs give them.
    assert.equal((await search('消極性テ\u3099サ\u3099イン宣言')).results[0]?.isbn, inventedIsbn(9601));
    assert.equal((await search('채식주의자')).results[0]?.isbn, inventedIsbn(9602));
    assert.equal(fake.requestCount(), 0, 'the catalog answered: no provider was asked');
  });

  it('finds a Hindi title in the local catalog: vowel signs and viramas split words alike on both databases', async () => {
    await addCatalogEntry(context.store(), {
      isbn13: inventedIsbn(9603),
      title: 'गोदान',
      authors: ['प्रेमचंद'],
      popularity: 100,
    });
    await addCatalogEntry(context.store(), {
      isbn13: inventedIsbn(9604),
      title: 'हिन्दी उपन्यास',
      authors: ['रामविलास शर्मा'],
      popularity: 100,
    });
    assert.equal((await search('गोदान प्रेमचंद')).results[0]?.isbn, inventedIsbn(9603));
    assert.equal((await search('हिन्दी उपन्यास')).results[0]?.isbn, inventedIsbn(9604));
    assert.equal(fake.requestCount(), 0, 'the catalog answered: no provider was asked');
  });

  it('shows no control characters from a provider’s title', async () => {
    fake.addBook({
      isbn13: inventedIsbn(9501),
      title: 'Winter Harbour \u0096 A Crossing\u0081',
      authors: ['Oskar Bren'],
      only: ['googlebooks'],
    });
    const body = await search('winter harbour crossing');
    assert.equal(body.results[0]?.title, 'Winter Harbour – A Crossing');
  });
});
