import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { ProviderChain } from '../../src/catalog/chain.js';
import { createHttpClient, type HttpClient, OutboundError } from '../../src/catalog/http-client.js';
import { GoogleBooksProvider } from '../../src/catalog/providers/googlebooks.js';
import { buildProviders, createProviderChain } from '../../src/catalog/providers/index.js';
import { ItunesProvider } from '../../src/catalog/providers/itunes.js';
import { OpenLibraryProvider } from '../../src/catalog/providers/openlibrary.js';
import type { MetadataProvider } from '../../src/catalog/types.js';
import { loadConfig } from '../../src/config.js';
import { type Isbn, parseIsbn } from '../../src/domain/isbn.js';
import {
  isProviderMiss,
  providerMissCache,
  purgeExpiredProviderMisses,
} from '../../src/store/provider-misses.js';
import { describeEachDialect } from '../support/databases.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

const WEAPONS = '9780316030571';
const DUNE = '9780441172719';
const UNKNOWN = '9780140449136';

function isbn(text: string): Isbn {
  const parsed = parseIsbn(text);
  assert.ok(parsed, `test ISBN ${text} is valid`);
  return parsed;
}

const never = () => new AbortController().signal;

let fake: FakeProviders;
let clients: HttpClient[] = [];

function client(overrides: Parameters<typeof createHttpClient>[1] = {}): HttpClient {
  const created = createHttpClient({ ...fake.urls, providerTimeoutMs: 1000 }, { backoffMs: 5, ...overrides });
  clients.push(created);
  return created;
}

function providers(http: HttpClient) {
  return {
    openlibrary: new OpenLibraryProvider({
      baseUrl: fake.urls.openLibraryUrl,
      coversUrl: fake.urls.openLibraryCoversUrl,
      client: http,
    }),
    googlebooks: new GoogleBooksProvider({ baseUrl: fake.urls.googleBooksUrl, client: http }),
    itunes: new ItunesProvider({ baseUrl: fake.urls.itunesUrl, client: http }),
  };
}

function addWeapons(only?: ('openlibrary' | 'googlebooks' | 'itunes')[]): void {
  fake.addBook({
    isbn13: WEAPONS,
    isbn10: '0316030570',
    title: 'Use of Weapons',
    authors: ['Iain M. Banks'],
    publisher: 'Orbit',
    publishedDate: '2008-07-28',
    pages: 480,
    description: 'A Culture novel.',
    olEdition: 'OL10426208M',
    olWork: 'OL82563W',
    googleId: 'vol123',
    appleId: 360_000_001,
    goodreads: '3395563',
    ...(only ? { only } : {}),
  });
}

before(async () => {
  fake = await startFakeProviders();
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
  fake.reset();
});
after(() => fake.close());

describe('providers map the documented formats', () => {
  it('Open Library Books API (jscmd=data)', async () => {
    addWeapons(['openlibrary']);
    const record = await providers(client()).openlibrary.lookupIsbn(isbn(WEAPONS), never());
    assert.ok(record);
    assert.equal(record.title, 'Use of Weapons');
    assert.deepEqual(record.authors, ['Iain M. Banks']);
    assert.equal(record.publishedDate, '2008-07-28', 'OL writes "July 28, 2008"');
    assert.equal(record.publisher, 'Orbit');
    assert.equal(record.pages, 480);
    assert.equal(record.coverUrl, `${fake.urls.openLibraryCoversUrl}/b/id/${WEAPONS.slice(-7)}-L.jpg`);
    assert.deepEqual(record.identifiers, {
      ol_edition: 'OL10426208M',
      ol_work: 'OL82563W',
      goodreads: '3395563',
    });
    assert.equal(record.workKey, 'OL82563W');
    assert.equal(record.isbn10, '0316030570');
    assert.match(
      fake.requests('openlibrary')[0] ?? '',
      /bibkeys=ISBN%3A9780316030571&jscmd=data&format=json/,
    );
    assert.equal(await providers(client()).openlibrary.lookupIsbn(isbn(UNKNOWN), never()), null);
  });

  it('Open Library search.json and covers', async () => {
    addWeapons(['openlibrary']);
    const ol = providers(client()).openlibrary;
    const [found, ...rest] = await ol.search({ text: 'weapons banks', limit: 5 }, never());
    assert.equal(rest.length, 0);
    assert.equal(found?.isbn13, WEAPONS);
    assert.equal(found?.publishedDate, '2008');
    assert.equal(found?.workKey, 'OL82563W');
    assert.match(fake.requests('openlibrary')[0] ?? '', /fields=key%2Ctitle/);
    assert.equal(
      await ol.coverForIsbn(WEAPONS, never()),
      `${fake.urls.openLibraryCoversUrl}/b/isbn/${WEAPONS}-L.jpg?default=false`,
    );
    assert.equal(await ol.coverForIsbn(DUNE, never()), null);
  });

  it('Google Books volumes', async () => {
    addWeapons(['googlebooks']);
    const google = providers(client()).googlebooks;
    const record = await google.lookupIsbn(isbn(WEAPONS), never());
    assert.ok(record);
    assert.equal(record.title, 'Use of Weapons');
    assert.equal(record.identifiers.google_volume, 'vol123');
    assert.equal(record.language, 'en');
    assert.equal(record.description, 'A Culture novel.');
    assert.equal(
      record.coverUrl,
      'https://books.google.com/books/content?id=vol123&printsec=frontcover&img=1&source=gbs_api&zoom=1',
    );
    const results = await google.search(
      { text: '', title: 'use of weapons', author: 'banks', limit: 5 },
      never(),
    );
    assert.deepEqual(
      results.map((r) => r.isbn13),
      [WEAPONS],
    );
    assert.match(fake.requests('googlebooks')[1] ?? '', /q=intitle%3Ause\+of\+weapons\+inauthor%3Abanks/);
    assert.equal(await google.lookupIsbn(isbn(DUNE), never()), null);
  });

  it('iTunes lookup and search, ebooks and audiobooks', async () => {
    addWeapons(['itunes']);
    fake.addBook({
      isbn13: DUNE,
      title: 'Dune',
      authors: ['Frank Herbert'],
      format: 'audiobook',
      appleId: 42,
      only: ['itunes'],
    });
    const itunes = providers(client()).itunes;
    const ebook = await itunes.lookupIsbn(isbn(WEAPONS), never());
    assert.equal(ebook?.format, 'ebook');
    assert.equal(ebook?.identifiers.apple_books, '360000001');
    assert.equal(ebook?.isbn13, WEAPONS);
    assert.match(ebook?.coverUrl ?? '', /\/600x600bb\.jpg$/);
    assert.equal(ebook?.description, 'A Culture novel.', 'HTML is stripped');
    const audio = await itunes.search({ text: 'dune', limit: 5 }, never());
    assert.deepEqual(
      audio.map((r) => [r.title, r.format, r.identifiers]),
      [['Dune', 'audiobook', { apple_audiobook: '42' }]],
    );
    assert.ok(fake.requests('itunes').some((path) => path.includes('media=audiobook')));
  });
});

describe('the HTTP client', () => {
  it('refuses hosts outside the allow-list without any request', async () => {
    const http = client();
    const other = fake.origin.replace('127.0.0.1', 'localhost');
    await assert.rejects(
      http.getJson('openlibrary', `${other}/ol/api/books`),
      (error: unknown) => error instanceof OutboundError && error.code === 'host_not_allowed',
    );
    await assert.rejects(http.getJson('openlibrary', 'https://evil.example/x'), OutboundError);
    assert.equal(fake.requestCount(), 0);
  });

  it('retries 5xx with back-off, then succeeds', async () => {
    addWeapons(['openlibrary']);
    fake.setFailure('openlibrary', { status: 503, times: 2 });
    const http = client({ retries: 2 });
    const record = await providers(http).openlibrary.lookupIsbn(isbn(WEAPONS), never());
    assert.equal(record?.title, 'Use of Weapons');
    assert.equal(fake.requestCount('openlibrary'), 3);
    assert.equal(http.stats().openlibrary?.retries, 2);
    assert.equal(http.stats().openlibrary?.failures, 0);
  });

  it('gives up after a bounded number of retries and does not retry a 404', async () => {
    fake.setFailure('googlebooks', { status: 500 });
    const http = client({ retries: 1 });
    await assert.rejects(providers(http).googlebooks.lookupIsbn(isbn(WEAPONS), never()), /HTTP 500/);
    assert.equal(fake.requestCount('googlebooks'), 2);
    fake.setFailure('googlebooks', null);
    await assert.rejects(http.getJson('googlebooks', `${fake.urls.googleBooksUrl}/nothing`), /HTTP 404/);
    assert.equal(fake.requestCount('googlebooks'), 3);
    assert.equal(http.breakerState('googlebooks'), 'closed', 'a 404 counts as an answer');
  });

  it('times out a hanging service and does not retry the timeout', async () => {
    fake.setFailure('itunes', { hang: true });
    const http = client({ timeoutMs: 150 });
    const started = Date.now();
    await assert.rejects(
      providers(http).itunes.lookupIsbn(isbn(WEAPONS), never()),
      (error: unknown) => error instanceof OutboundError && error.code === 'timeout',
    );
    assert.ok(Date.now() - started < 1000);
    assert.equal(fake.requestCount('itunes'), 1);
    assert.equal(http.stats().itunes?.timeouts, 1);
  });

  it('opens the breaker after consecutive failures and closes it after a good trial', async () => {
    addWeapons(['openlibrary']);
    fake.setFailure('openlibrary', { status: 500 });
    const http = client({ retries: 0, breakerThreshold: 3, breakerCooldownMs: 150 });
    const ol = providers(http).openlibrary;
    for (let i = 0; i < 3; i++) await assert.rejects(ol.lookupIsbn(isbn(WEAPONS), never()));
    assert.equal(http.breakerState('openlibrary'), 'open');
    await assert.rejects(
      ol.lookupIsbn(isbn(WEAPONS), never()),
      (e: unknown) => e instanceof OutboundError && e.code === 'circuit_open',
    );
    assert.equal(fake.requestCount('openlibrary'), 3, 'an open circuit sends nothing');
    assert.equal(http.stats().openlibrary?.rejected, 1);

    fake.setFailure('openlibrary', null);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(http.breakerState('openlibrary'), 'half-open');
    assert.equal((await ol.lookupIsbn(isbn(WEAPONS), never()))?.title, 'Use of Weapons');
    assert.equal(http.breakerState('openlibrary'), 'closed');
  });

  it('follows short links only through allowed hosts, never reading bodies of others', async () => {
    const http = client({ shortLinkHosts: ['127.0.0.1'] });
    const retailer = `${fake.origin.replace('127.0.0.1', 'localhost')}/dp/B000FC1PJI`;
    fake.addRedirect('/r/a', `${fake.origin}/r/b`);
    fake.addRedirect('/r/b', retailer);
    fake.addRedirect('/r/evil', 'http://192.0.2.1/elsewhere');
    const options = { retailerHosts: ['localhost'] };
    assert.equal(await http.followShortLink(`${fake.origin}/r/a`, options), retailer);
    assert.equal(await http.followShortLink(`${fake.origin}/r/evil`, options), null);
    assert.equal(await http.followShortLink('https://example.com/r/a', options), null);
    assert.equal(
      fake.requestCount('redirects'),
      3,
      'a, b and evil; the retailer and other hosts are never fetched',
    );

    for (let i = 0; i < 7; i++) fake.addRedirect(`/r/loop${i}`, `${fake.origin}/r/loop${i + 1}`);
    assert.equal(await http.followShortLink(`${fake.origin}/r/loop0`, options), null);
    assert.equal(fake.requestCount('redirects'), 8, 'at most five hops');
  });
});

describe('the provider chain', () => {
  it('merges the answers of all providers in order of trust', async () => {
    addWeapons(['googlebooks', 'itunes']);
    const chain = new ProviderChain(Object.values(providers(client())), { timeoutMs: 1000 });
    const record = await chain.lookupIsbn(isbn(WEAPONS));
    assert.ok(record);
    assert.equal(record.source, 'googlebooks+itunes');
    assert.equal(record.isbn13, WEAPONS);
    assert.match(record.coverUrl ?? '', /^https:\/\/books\.google\.com\//, 'Google outranks iTunes');
    assert.deepEqual(record.identifiers, { google_volume: 'vol123', apple_books: '360000001' });
    assert.equal(record.format, 'ebook');
  });

  it('prefers the clean title, the fuller date and a real cover across sources', async () => {
    fake.addBook({
      isbn13: WEAPONS,
      title: 'Use of Weapons (Culture, #3)',
      authors: ['Iain M. Banks'],
      publishedDate: '2008',
      cover: false,
      olWork: 'OL82563W',
      only: ['openlibrary'],
    });
    const p = providers(client());
    const chain = new ProviderChain([p.openlibrary, p.googlebooks], { timeoutMs: 1000 });
    const onlyOl = await chain.lookupIsbn(isbn(WEAPONS));
    assert.equal(onlyOl?.title, 'Use of Weapons', 'series note stripped');
    assert.equal(onlyOl?.coverUrl, null, 'no source has a cover');

    fake.addBook({
      isbn13: WEAPONS,
      title: 'Use of Weapons',
      publishedDate: '2008-07',
      only: ['googlebooks'],
    });
    // Two fakes cannot hold one ISBN differently, so ask the providers one by one and merge.
    const record = await new ProviderChain([p.googlebooks], { timeoutMs: 1000 }).lookupIsbn(isbn(WEAPONS));
    assert.equal(record?.publishedDate, '2008-07');
    assert.match(record?.coverUrl ?? '', /zoom=1/);
  });

  it('answers without a slow provider, within its budget', async () => {
    addWeapons();
    fake.setFailure('itunes', { hang: true });
    const errors: string[] = [];
    const chain = new ProviderChain(Object.values(providers(client({ timeoutMs: 5000 }))), {
      timeoutMs: 200,
      onError: (name) => errors.push(name),
    });
    const started = Date.now();
    const record = await chain.lookupIsbn(isbn(WEAPONS));
    assert.ok(Date.now() - started < 1000);
    assert.equal(record?.source, 'openlibrary+googlebooks');
    assert.deepEqual(errors, ['itunes']);
  });

  it('remembers a miss and does not ask again, but never after an error', async () => {
    const misses = new Map<string, number>();
    const cache = {
      isMiss: async (isbn13: string) => (misses.get(isbn13) ?? 0) > Date.now(),
      remember: async (isbn13: string, ttlMs: number) => void misses.set(isbn13, Date.now() + ttlMs),
    };
    fake.setFailure('googlebooks', { status: 500, times: 1 });
    const chain = new ProviderChain(Object.values(providers(client({ retries: 0 }))), {
      timeoutMs: 1000,
      missCache: cache,
    });
    assert.equal(await chain.lookupIsbn(isbn(UNKNOWN)), null);
    assert.equal(misses.size, 0, 'a failing provider may know the book');
    assert.equal(await chain.lookupIsbn(isbn(UNKNOWN)), null);
    assert.equal(misses.size, 1);
    const asked = fake.requestCount();
    assert.equal(await chain.lookupIsbn(isbn(UNKNOWN)), null);
    assert.equal(fake.requestCount(), asked, 'the remembered miss asks nobody');
  });

  it('searches every searching provider and merges duplicates by ISBN', async () => {
    addWeapons();
    const local: MetadataProvider = { name: 'local', lookupIsbn: async () => null };
    const config = loadConfig({ ...fake.env, PROVIDERS: 'local,openlibrary,googlebooks,itunes' });
    const http = client();
    const built = buildProviders(config, local, http);
    assert.deepEqual(
      built.map((p) => p.name),
      ['local', 'openlibrary', 'googlebooks', 'itunes'],
    );
    const chain = new ProviderChain(built, { timeoutMs: 1000 });
    const results = await chain.search({ text: 'use of weapons', limit: 5 });
    const withIsbn = results.filter((r) => r.isbn13 === WEAPONS);
    assert.equal(withIsbn.length, 1);
    assert.equal(withIsbn[0]?.source, 'openlibrary+googlebooks');
    assert.ok(
      results.some((r) => r.source === 'itunes' && r.isbn13 === null),
      'iTunes search has no ISBNs',
    );
  });
});

describeEachDialect('provider misses', (context) => {
  it('remembers misses until they expire, through the chain', async () => {
    const { db } = context.store();
    let now = new Date('2030-01-01T00:00:00Z');
    const cache = providerMissCache(db, () => now);
    const chain = new ProviderChain(Object.values(providers(client())), {
      timeoutMs: 1000,
      missCache: cache,
      missTtlMs: 60_000,
    });
    assert.equal(await chain.lookupIsbn(isbn(UNKNOWN)), null);
    assert.equal(await isProviderMiss(db, UNKNOWN, now), true);
    const asked = fake.requestCount();
    await chain.lookupIsbn(isbn(UNKNOWN));
    assert.equal(fake.requestCount(), asked);

    now = new Date('2030-01-01T00:01:01Z');
    assert.equal(await isProviderMiss(db, UNKNOWN, now), false);
    fake.addBook({ isbn13: UNKNOWN, title: 'The Odyssey', authors: ['Homer'], only: ['googlebooks'] });
    assert.equal((await chain.lookupIsbn(isbn(UNKNOWN)))?.title, 'The Odyssey');
    assert.equal(await purgeExpiredProviderMisses(db, now), 1);
  });

  it('is wired from the configuration by createProviderChain', async () => {
    const config = loadConfig({ ...fake.env, PROVIDERS: 'openlibrary,googlebooks' });
    const { chain, client: http } = createProviderChain(config, context.store().db);
    clients.push(http);
    fake.addBook({ isbn13: DUNE, title: 'Dune', authors: ['Frank Herbert'], only: ['googlebooks'] });
    assert.equal((await chain.lookupIsbn(isbn(DUNE)))?.title, 'Dune');
    assert.equal(await chain.lookupIsbn(isbn(UNKNOWN)), null);
    assert.equal(await isProviderMiss(context.store().db, UNKNOWN), true);
    assert.deepEqual(Object.keys(http.stats()).sort(), ['googlebooks', 'openlibrary']);
    assert.equal(fake.requestCount('itunes'), 0, 'only configured providers are asked');
  });
});
