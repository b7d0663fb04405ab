import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

/** `/resolve` redirects, short links through the local fake shortener, and provider id lookups. */
describeEachDialect('GET /resolve and short links', (context) => {
  let fake: FakeProviders;
  let t: TestApp;
  const location = async (url: string) => {
    const response = await t.get(`/resolve?${new URLSearchParams({ url })}`);
    assert.equal(response.status, 302, url);
    return response.headers.get('location');
  };
  const api = async (url: string) => {
    const response = await t.get(`/api/v1/resolve?${new URLSearchParams({ url })}`);
    return (await response.json()) as { status: string; isbn?: string; search_url?: string };
  };

  before(async () => {
    fake = await startFakeProviders();
    // Only the fake's 127.0.0.1 origin is a short-link host here; `localhost` (same server) is not.
    t = await startTestApp(
      context.store(),
      { ...fake.env, PROVIDERS: 'local,openlibrary,googlebooks', RATE_LIMIT_ANON: '10000' },
      { shortLinkHosts: ['127.0.0.1'] },
    );
    await addCatalogEntry(context.store(), {
      isbn13: '9780547928227',
      title: 'The Hobbit',
      authors: ['J.R.R. Tolkien'],
      identifiers: { goodreads: '5907' },
    });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('redirects to the book, to a search, or home; never to the URL given', async () => {
    assert.equal(
      await location('https://www.goodreads.com/book/show/5907.The_Hobbit'),
      '/book/the-hobbit-j-r-r-tolkien',
    );
    assert.equal(
      await location('https://www.kobo.com/us/en/ebook/the-unwritten-chronicle-7'),
      '/search?q=the+unwritten+chronicle+7',
    );
    assert.equal(await location('https://www.amazon.com/'), '/');
    assert.equal(await location('https://evil.example/phish'), '/');
    const none = await t.get('/resolve');
    assert.equal(none.status, 302);
    assert.equal(none.headers.get('location'), '/');
  });

  it('follows a short link only through the allow-listed host, then resolves the target', async () => {
    fake.addRedirect('/r/hobbit', 'https://www.amazon.com/The-Hobbit/dp/054792822X/ref=sr_1_1');
    const before = fake.requests('redirects').length;
    assert.equal(await location(`${fake.origin}/r/hobbit`), '/book/the-hobbit-j-r-r-tolkien');
    assert.deepEqual(fake.requests('redirects').slice(before), ['/r/hobbit']);
  });

  it('never fetches a host that is not allow-listed, even when a short link points at it', async () => {
    const port = new URL(fake.origin).port;
    fake.addRedirect('/r/hop', `http://localhost:${port}/r/hobbit`);
    const before = fake.requests('redirects').length;
    const hop = await api(`${fake.origin}/r/hop`);
    assert.equal(hop.status, 'not_found');
    const direct = await api(`http://localhost:${port}/r/hobbit`);
    assert.equal(direct.status, 'not_found');
    // Only the allow-listed first hop was requested; localhost was never fetched.
    assert.deepEqual(fake.requests('redirects').slice(before), ['/r/hop']);
  });

  it('looks up an Open Library edition and a Google volume by id, for a human', async () => {
    fake.addBook({
      isbn13: '9780316030571',
      title: 'Use of Weapons',
      authors: ['Iain M. Banks'],
      olEdition: 'OL24274306M',
      only: ['openlibrary'],
    });
    fake.addBook({
      isbn13: '9780575094185',
      title: 'Excession',
      authors: ['Iain M. Banks'],
      googleId: 'xCeSs10N',
    });
    const ol = await api('https://openlibrary.org/books/OL24274306M/Use_of_Weapons');
    assert.equal(ol.isbn, '9780316030571');
    const google = await api('https://books.google.com/books?id=xCeSs10N&printsec=frontcover');
    assert.equal(google.isbn, '9780575094185');
    const unknown = await api('https://books.google.com/books?id=nOsUcHvOlUmE');
    assert.equal(unknown.status, 'not_found');
    assert.ok(
      fake.requests('googlebooks').some((path) => path.startsWith('/google/books/v1/volumes/nOsUcHvOlUmE')),
    );
  });
});
