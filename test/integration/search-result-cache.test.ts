import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { announceChange } from '../../src/services/change-relay.js';
import { closeRedis, createRedis, type Redis, redisReachable } from '../../src/services/redis.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { AdminClient, addBook, addUser } from './admin-support.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface SearchBody {
  status: string;
  results: Array<{ title: string; authors: string[]; isbn: string | null; search_url: string }>;
}

async function api(t: TestApp, q: string, extra = ''): Promise<SearchBody> {
  const response = await t.get(`/api/v1/search?q=${encodeURIComponent(q)}${extra}`);
  assert.equal(response.status, 200, await response.clone().text());
  return (await response.json()) as SearchBody;
}

/** The search result cache's counters as /metrics shows them. */
async function cacheCounters(t: TestApp): Promise<{ hits: number; misses: number; clears: number }> {
  const text = await (await t.get('/metrics')).text();
  const read = (name: string) => Number(new RegExp(`^${name} (\\d+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    hits: read('booklink_search_cache_hits_total'),
    misses: read('booklink_search_cache_misses_total'),
    clears: read('booklink_search_cache_clears_total'),
  };
}

async function loggedCount(t: TestApp, source: string): Promise<number> {
  const row = await sql<{ n: number }>`select count(*) as n from searches where source = ${source}`.execute(
    t.store.db,
  );
  return Number(row.rows[0]?.n ?? 0);
}

/** Polls `check` for up to 3 s; the last failure is thrown. */
async function eventually(check: () => Promise<void>): Promise<void> {
  for (let waited = 0; ; waited += 20) {
    try {
      await check();
      return;
    } catch (error) {
      if (waited > 3000) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

describeEachDialect('search result cache', (context) => {
  let t: TestApp;
  let uncached: TestApp;
  let client: AdminClient;
  let bookId = 0;
  before(async () => {
    const store = context.store();
    t = await startTestApp(store, { RATE_LIMIT_ANON: '10000' }, { searchLogFlushIntervalMs: 20 });
    uncached = await startTestApp(store, { RATE_LIMIT_ANON: '10000', SEARCH_CACHE_MS: '0' });
    for (const [i, title] of ['Dune', 'Dune Messiah', 'Children of Dune', 'God Emperor of Dune'].entries()) {
      await addCatalogEntry(store, {
        isbn13: `978044117271${i}`,
        title,
        authors: ['Frank Herbert'],
        popularity: 900_000 - i * 1000,
        coverUrl: `https://covers.example/${i}.jpg`,
      });
    }
    await addCatalogEntry(store, {
      isbn13: '9780000000101',
      title: 'Winter Orchard',
      authors: ['Ines Moreau'],
    });
    bookId = await addBook(store, { slug: 'the-salt-road', title: 'The Salt Road', isbn13: '9780000000200' });
    await addUser(store, 'cache-admin@example.test', 'admin');
    client = new AdminClient(t);
    await client.login('cache-admin@example.test');
  });
  after(async () => {
    await uncached.close();
    await t.close();
  });

  it('answers a repeated query from the cache with the uncached answer, and logs every request', async () => {
    const before = await cacheCounters(t);
    const first = await api(t, 'dune herbert', '&source=app-cache');
    const again = await api(t, 'dune herbert', '&source=app-cache');
    const fresh = await api(uncached, 'dune herbert');
    assert.equal(first.results.length, 4);
    assert.deepEqual(again, first, 'a hit answers what the miss answered');
    assert.deepEqual(fresh, first, 'the same as a server without the cache');
    // The limit is part of the question.
    const three = await api(t, 'dune herbert', '&limit=3&source=app-cache');
    assert.deepEqual(three.results, first.results.slice(0, 3));
    const after = await cacheCounters(t);
    assert.equal(after.hits - before.hits, 1);
    assert.equal(after.misses - before.misses, 2);
    // Hits are logged like misses (off the request path, within a flush interval).
    await eventually(async () => assert.equal(await loggedCount(t, 'app-cache'), 3));
  });

  it('drops the cached answers when an admin edits a book', async () => {
    assert.equal((await api(t, 'salt road')).results[0]?.title, 'The Salt Road');
    assert.equal((await api(t, 'salt road')).results[0]?.title, 'The Salt Road', 'cached');
    const saved = await client.post(`/admin/books/${bookId}/edit`, {
      title: 'The Salt Road Home',
      authors: 'Test Author',
      isbn_13: '9780000000200',
    });
    assert.equal(saved.status, 303);
    assert.equal((await api(t, 'salt road')).results[0]?.title, 'The Salt Road Home');
  });

  it('drops the cached answers when a reader creates a book from a result', async () => {
    const listed = await api(t, 'winter orchard');
    assert.equal(listed.results[0]?.isbn, '9780000000101');
    await api(t, 'winter orchard');
    const before = await cacheCounters(t);
    const pick = await t.get(`/search?q=${encodeURIComponent('winter orchard')}&pick=1`);
    assert.equal(pick.status, 302);
    assert.match(pick.headers.get('location') ?? '', /^\/book\/winter-orchard/);
    const after = await cacheCounters(t);
    assert.ok(after.clears > before.clears, 'the new book dropped the cached answers');
    assert.equal((await api(t, 'winter orchard')).results[0]?.isbn, '9780000000101');
    assert.equal(
      (await cacheCounters(t)).misses,
      after.misses + 1,
      'searched again, not answered from the cache',
    );
  });

  it('writes every logged search on a graceful stop', async () => {
    const app = await startTestApp(
      context.store(),
      { RATE_LIMIT_ANON: '10000' },
      { searchLogFlushIntervalMs: 60_000 },
    );
    for (let i = 0; i < 25; i++) await api(app, i % 2 === 0 ? 'dune' : 'dune messiah', '&source=app-stop');
    assert.equal(app.services.searchLog.stats().pending, 25, 'nothing written before the interval');
    await app.close();
    assert.equal(await loggedCount(t, 'app-stop'), 25);
  });
});

describeEachDialect('search result cache across instances (Redis)', (context) => {
  // No nested async describe: registered after the PostgreSQL check's await, its tests would not run.
  let reachable = false;
  const prefix = `test:search-results:${randomBytes(4).toString('hex')}:`;
  let redisA: Redis;
  let redisB: Redis;
  let a: TestApp;
  let b: TestApp;
  let bookId = 0;
  before(
    async () => {
      reachable = await redisReachable(REDIS_URL);
      if (!reachable) return;
      redisA = createRedis(REDIS_URL, { keyPrefix: prefix });
      redisB = createRedis(REDIS_URL, { keyPrefix: prefix });
      a = await startTestApp(context.store(), { RATE_LIMIT_ANON: '10000' }, { redis: redisA });
      b = await startTestApp(context.store(), { RATE_LIMIT_ANON: '10000' }, { redis: redisB });
      await a.services.changeRelay?.ready;
      await b.services.changeRelay?.ready;
      await addCatalogEntry(context.store(), {
        isbn13: '9780000000309',
        title: 'Lantern Harbour',
        authors: ['Clara Novak'],
        popularity: 10,
      });
      bookId = await addBook(context.store(), {
        slug: 'the-glass-meadow',
        title: 'The Glass Meadow',
        isbn13: '9780000000408',
      });
      await addUser(context.store(), 'relay-admin@example.test', 'admin');
    },
    // A hook that waits on Redis fails here rather than hanging the run.
    { timeout: 60_000 },
  );
  after(async () => {
    if (!reachable) return;
    await a.close();
    await b.close();
    await closeRedis(redisA);
    await closeRedis(redisB);
  });

  it('an import announced from the command line reaches every instance', async (test) => {
    if (!reachable) return test.skip(`Redis not reachable at ${REDIS_URL}`);
    assert.equal((await api(b, 'lantern harbour')).results.length, 1);
    // An import writes behind the servers' backs; until it is announced the answer is the cached one.
    await addCatalogEntry(context.store(), {
      isbn13: '9780000000316',
      title: 'Lantern Harbour',
      authors: ['Clara Novak'],
      format: 'hardcover',
      popularity: 20,
    });
    await addCatalogEntry(context.store(), {
      isbn13: '9780000000323',
      title: 'Lantern Harbour Nights',
      authors: ['Clara Novak'],
      popularity: 5,
    });
    assert.equal((await api(b, 'lantern harbour')).results.length, 1, 'cached');
    await announceChange(redisA, { name: 'catalog-changed', args: [] });
    await eventually(async () => assert.equal((await api(b, 'lantern harbour')).results.length, 2));
  });

  it('an admin edit on one instance reaches the cached answers of the other', async (test) => {
    if (!reachable) return test.skip(`Redis not reachable at ${REDIS_URL}`);
    assert.equal((await api(b, 'glass meadow')).results[0]?.title, 'The Glass Meadow');
    const client = new AdminClient(a);
    await client.login('relay-admin@example.test');
    const saved = await client.post(`/admin/books/${bookId}/edit`, {
      title: 'The Glass Meadow Again',
      authors: 'Test Author',
      isbn_13: '9780000000408',
    });
    assert.equal(saved.status, 303);
    await eventually(async () =>
      assert.equal((await api(b, 'glass meadow')).results[0]?.title, 'The Glass Meadow Again'),
    );
  });
});
