import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { BOT_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

interface ResolveBody {
  status: 'found' | 'not_found';
  booklink_url?: string;
  short_url?: string;
  title?: string;
  authors?: string[];
  cover_url?: string | null;
  isbn?: string | null;
  search_url?: string;
}

const BASE = 'http://booklink.test';

describeEachDialect('GET /api/v1/resolve', (context) => {
  let t: TestApp;
  const resolve = async (url: string | null, ua?: string): Promise<ResolveBody> => {
    const query = url === null ? '' : `?${new URLSearchParams({ url, source: 'app-test' })}`;
    const response = await t.get(`/api/v1/resolve${query}`, ua ? { 'user-agent': ua } : {});
    assert.equal(response.status, 200);
    return (await response.json()) as ResolveBody;
  };
  const bookCount = async (isbn13: string) => {
    const row = await context
      .store()
      .db.selectFrom('books')
      .select(sql<number>`count(*)`.as('n'))
      .where('isbn13', '=', isbn13)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  before(async () => {
    const store = context.store();
    // A high anonymous rate limit: this file makes more API calls than a minute's quota.
    t = await startTestApp(store, { RATE_LIMIT_ANON: '10000' });
    await addCatalogEntry(store, {
      isbn13: '9780547928227',
      isbn10: '054792822X',
      title: 'The Hobbit',
      authors: ['J.R.R. Tolkien'],
      identifiers: { goodreads: '5907', ol_edition: 'OL7353617M' },
      popularity: 1000,
    });
    await addCatalogEntry(store, {
      isbn13: '9780525559474',
      title: 'The Midnight Library',
      authors: ['Matt Haig'],
      popularity: 500,
    });
    await addCatalogEntry(store, {
      isbn13: '9780593135204',
      title: 'Project Hail Mary',
      authors: ['Andy Weir'],
      identifiers: { asin: 'B08FHBV4ZX' },
    });
    await addCatalogEntry(store, {
      isbn13: '9780062315007',
      title: 'The Alchemist',
      authors: ['Paulo Coelho'],
    });
  });
  after(() => t.close());

  it('resolves ISBN URLs of several stores to one book, created for the first human', async () => {
    const urls = [
      'https://www.amazon.com/The-Hobbit-J-R-R-Tolkien/dp/054792822X/ref=sr_1_1?crid=2M1&keywords=the+hobbit',
      'https://www.amazon.co.uk/dp/054792822X?tag=someaffil-21',
      'https://www.barnesandnoble.com/w/the-hobbit-j-r-r-tolkien/1100292645?ean=9780547928227',
      'https://bookshop.org/p/books/the-hobbit-j-r-r-tolkien/6409146?ean=9780547928227',
      'https://openlibrary.org/isbn/9780547928227',
    ];
    for (const url of urls) {
      const body = await resolve(url);
      assert.deepEqual(
        body,
        {
          status: 'found',
          booklink_url: `${BASE}/book/the-hobbit-j-r-r-tolkien`,
          short_url: `${BASE}/b/the-hobbit-j-r-r-tolkien`,
          title: 'The Hobbit',
          authors: ['J.R.R. Tolkien'],
          cover_url: null,
          isbn: '9780547928227',
        },
        url,
      );
    }
    assert.equal(await bookCount('9780547928227'), 1);
  });

  it('answers a store URL it tied to a book from memory until a book or the catalog changes', async () => {
    const url = 'https://www.amazon.com/dp/054792822X/ref=remembered';
    assert.equal((await resolve(url)).title, 'The Hobbit');
    const books = () => context.store().db.updateTable('books').where('isbn13', '=', '9780547928227');
    await books().set({ title: 'The Hobbit, or There and Back Again' }).execute();
    assert.equal((await resolve(url)).title, 'The Hobbit', 'remembered: no query for a known URL');
    t.services.events.emit('book-changed', 'the-hobbit-j-r-r-tolkien');
    assert.equal((await resolve(url)).title, 'The Hobbit, or There and Back Again');
    await books().set({ title: 'The Hobbit' }).execute();
    t.services.events.emit('catalog-changed');
    assert.equal((await resolve(url)).title, 'The Hobbit');
  });

  it('never lets a bot or a script create a book, but lets it read an existing one', async () => {
    const url = 'https://www.waterstones.com/book/the-alchemist/paulo-coelho/9780062315007';
    for (const ua of [BOT_UA, 'curl/8.5.0', 'MyLittleScraper/1.0']) {
      const body = await resolve(url, ua);
      assert.deepEqual(body, { status: 'not_found', search_url: `${BASE}/search?q=the+alchemist` }, ua);
    }
    assert.equal(await bookCount('9780062315007'), 0);
    assert.equal((await resolve(url)).status, 'found');
    const again = await resolve(url, BOT_UA);
    assert.equal(again.booklink_url, `${BASE}/book/the-alchemist-paulo-coelho`);
  });

  it('resolves a Goodreads id through a catalog entry and an ASIN through a saved book', async () => {
    const goodreads = await resolve('https://www.goodreads.com/book/show/5907.The_Hobbit?from_search=true');
    assert.equal(goodreads.isbn, '9780547928227');
    const bot = await resolve(
      'https://www.amazon.com/Project-Hail-Mary-Andy-Weir-ebook/dp/B08FHBV4ZX',
      BOT_UA,
    );
    assert.equal(bot.status, 'not_found');
    const kindle = await resolve('https://www.amazon.com/Project-Hail-Mary-Andy-Weir-ebook/dp/B08FHBV4ZX');
    assert.equal(kindle.isbn, '9780593135204');
    // Now the saved book holds the ASIN: a bot reads it with one indexed lookup.
    const saved = await resolve('https://www.amazon.de/dp/B08FHBV4ZX', BOT_UA);
    assert.equal(saved.booklink_url, `${BASE}/book/project-hail-mary-andy-weir`);
  });

  it('resolves title words only on a confident search match whose words agree', async () => {
    const audible = await resolve('https://www.audible.com.au/pd/The-Midnight-Library-Audiobook/B08GKXSKQN');
    assert.equal(audible.isbn, '9780525559474');
    const french = await resolve('https://www.audible.fr/pd/Le-Hobbit-Livre-Audio/B07K1LQ8Y2');
    assert.equal(french.status, 'not_found');
    assert.equal(french.search_url, `${BASE}/search?q=Le+Hobbit`);
  });

  it('never matches a DVD, a search page or an unknown identifier to a book', async () => {
    const dvd = await resolve(
      'https://www.amazon.com/Lord-Rings-Fellowship-Extended-DVD/dp/B00005JKZY/ref=sr_1_3',
    );
    // The DVD's own words may be searched for; the DVD is never answered as a book.
    assert.deepEqual(dvd, {
      status: 'not_found',
      search_url: `${BASE}/search?q=Lord+Rings+Fellowship+Extended+DVD`,
    });
    const search = await resolve('https://www.amazon.com/s?k=the+hobbit&i=stripbooks');
    assert.equal(search.status, 'not_found');
    const unknown = await resolve('https://www.goodreads.com/book/show/99999999');
    assert.deepEqual(unknown, { status: 'not_found', search_url: `${BASE}/search?q=99999999` });
    const lookalike = await resolve('https://www.amazon.com.evil.example/dp/054792822X');
    assert.equal(lookalike.status, 'not_found');
  });

  it('answers not_found with the search page for a missing, empty or non-URL input', async () => {
    assert.deepEqual(await resolve(null), { status: 'not_found', search_url: `${BASE}/search` });
    assert.deepEqual(await resolve('  '), { status: 'not_found', search_url: `${BASE}/search` });
    assert.deepEqual(await resolve('javascript:alert(1)'), {
      status: 'not_found',
      search_url: `${BASE}/search`,
    });
    const text = await resolve('the hobbit');
    assert.equal(text.search_url, `${BASE}/search?q=the+hobbit`);
  });
});
