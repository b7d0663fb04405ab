/**
 * Issue 43's "done when" for anonymous writes: `npx tsx bench/faults/write-limits.ts [--writes 10000]
 * [--workers 8] [--redis redis://127.0.0.1:6379]`. Starts the real server (`dist/`, default caps, the
 * API rate limit lifted so only the write caps stand) on a fresh SQLite database, then sends
 * `--writes` distinct anonymous writes of each kind from one address (127.0.0.1) and counts the rows
 * each kind added. Goal: every kind stores at most its cap. `WRITE_LIMIT_*` variables set other caps
 * (`WRITE_LIMIT_CLICKS=1000`: the default, 10,000, would take every click of the run).
 */
import '../lib/help.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importCatalogFile } from '../../src/catalog/import/index.js';
import { loadConfig } from '../../src/config.js';
import { parseIsbn } from '../../src/domain/isbn.js';
import { createServices } from '../../src/services/container.js';
import { createRedis } from '../../src/services/redis.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import type { Database } from '../../src/store/schema.js';
import { BROWSER_UA, machineFacts, option, startApp, textOption, withTempDir } from '../lib/harness.js';

const writes = option('writes', 10_000);
const workers = option('workers', 8);
const redisUrl = textOption('redis', '');
/** Books and lists made beforehand for the list-book writes: LIST_BOOKS × lists ≥ writes. */
const LIST_BOOKS = 400;

function isbn13(serial: number): string {
  const first12 = `979${String(serial).padStart(9, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(first12[i]);
  return first12 + String((10 - (sum % 10)) % 10);
}

/** A catalog of `writes` ISBNs for /isbn/ and LIST_BOOKS more made books, searches to vote on, lists. */
async function prepare(dir: string): Promise<{
  url: string;
  lists: Array<{ id: number; token: string }>;
  sfids: number[];
  books: number[];
  slug: string;
}> {
  const url = `sqlite:${join(dir, 'bench.db')}`;
  const file = join(dir, 'catalog.jsonl');
  const lines = Array.from({ length: writes + LIST_BOOKS }, (_, i) =>
    JSON.stringify({ isbn13: isbn13(i + 1), title: `Bench Book ${i + 1}`, authors: [`Author ${i % 97}`] }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  const store = openStore(url);
  try {
    await migrateToLatest(store);
    await importCatalogFile(store, file, {
      format: 'jsonl',
      coversBaseUrl: 'https://covers.openlibrary.org',
    });
    const services = createServices(loadConfig({ DATABASE_URL: url, PROVIDERS: 'local' }), store, {
      remote: null,
      textSearch: null,
    });
    const books: number[] = [];
    let slug = '';
    for (let i = 0; i < LIST_BOOKS; i++) {
      const outcome = await services.creator.byIsbn(parseIsbn(isbn13(writes + i + 1))!, true);
      if (outcome.kind !== 'created') throw new Error(`book ${i}: ${outcome.kind}`);
      books.push(outcome.book.id);
      slug ||= outcome.book.slug;
    }
    const lists: Array<{ id: number; token: string }> = [];
    for (let i = 0; i < Math.ceil(writes / LIST_BOOKS); i++) {
      const created = await services.lists.create({ name: `bench ${i}`, bookId: null }, null);
      if (created.kind !== 'created') throw new Error(`list ${i}: ${created.kind}`);
      lists.push({ id: created.list.id, token: created.token });
    }
    const sfids: number[] = [];
    for (let from = 0; from < writes; from += 500) {
      const rows = Array.from({ length: Math.min(500, writes - from) }, (_, i) => ({
        query: `q${from + i}`,
        query_key: `q${from + i}`,
        parsed_title: null,
        parsed_author: null,
        kind: 'text',
        result_count: 0,
        top_book_key: null,
        source: null,
        channel: 'api',
        created_at: new Date().toISOString(),
      }));
      const ids = await store.db.insertInto('searches').values(rows).returning('id').execute();
      sfids.push(...ids.map((row) => Number(row.id)));
    }
    await services.close();
    return { url, lists, sfids, books, slug };
  } finally {
    await store.close();
  }
}

interface Kind {
  name: string;
  table: keyof Database;
  cap: number;
  request(i: number): { method: string; path: string; body?: unknown; headers?: Record<string, string> };
}

async function count(store: Store, table: keyof Database): Promise<number> {
  const row = await store.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** `writes` requests of one kind over `workers` connections; answers the count of each status. */
async function flood(base: string, kind: Kind): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < writes; i = next++) {
      const { method, path, body, headers = {} } = kind.request(i);
      const response = await fetch(`${base}${path}`, {
        method,
        redirect: 'manual',
        headers: {
          'user-agent': BROWSER_UA,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  return statuses;
}

/** Deletes every key under `prefix` (a client without a prefix of its own sees them whole). */
async function dropKeys(url: string, prefix: string): Promise<void> {
  const redis = createRedis(url, { keyPrefix: '' });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

await withTempDir(async (dir) => {
  const { url, lists, sfids, books, slug } = await prepare(dir);
  const config = loadConfig(process.env);
  const caps = config.writeLimits;
  const kinds: Kind[] = [
    {
      name: 'miss',
      table: 'search_misses',
      cap: caps.miss,
      request: (i) => ({
        method: 'POST',
        path: '/api/v1/search/miss',
        body: { query: `lost ${i}`, result_count: 0, details: 'd'.repeat(2000) },
      }),
    },
    {
      name: 'feedback',
      table: 'search_feedback',
      cap: caps.feedback,
      request: (i) => ({
        method: 'POST',
        path: '/api/v1/search/feedback',
        body: { query: `q ${i}`, result_count: 3, clicked_position: 1 },
      }),
    },
    {
      name: 'vote',
      table: 'search_votes',
      cap: caps.vote,
      request: (i) => ({
        method: 'POST',
        path: `/api/v1/search/${sfids[i]}/vote`,
        body: { feedback: 'positive' },
      }),
    },
    {
      name: 'saved_event',
      table: 'saved_events',
      cap: caps.saved_event,
      request: (i) => ({
        method: 'POST',
        path: '/api/v1/events/saved',
        body: { event_type: 'saved_add', collection_size: i },
      }),
    },
    {
      name: 'list',
      table: 'lists',
      cap: caps.list,
      request: (i) => ({ method: 'POST', path: '/api/v1/lists', body: { name: `list ${i}` } }),
    },
    {
      name: 'list_book',
      table: 'list_items',
      cap: caps.list_book,
      request: (i) => {
        const list = lists[Math.floor(i / LIST_BOOKS)]!;
        return {
          method: 'POST',
          path: `/api/v1/lists/${list.id}/books`,
          body: { book_id: books[i % LIST_BOOKS] },
          headers: { 'x-edit-token': list.token },
        };
      },
    },
    {
      name: 'book',
      table: 'books',
      cap: caps.book,
      request: (i) => ({ method: 'GET', path: `/isbn/${isbn13(i + 1)}` }),
    },
    {
      name: 'search',
      table: 'searches',
      cap: caps.search,
      request: (i) => ({ method: 'GET', path: `/search?q=${encodeURIComponent(`zzqx nowhere ${i}`)}` }),
    },
    // Clicks are buffered and written every second: their rows are counted once the flush is due.
    {
      name: 'click',
      table: 'clicks',
      cap: caps.click,
      request: () => ({ method: 'GET', path: `/go/${slug}/worldcat` }),
    },
  ];
  // The caps of this environment (WRITE_LIMIT_*, else the defaults), clicks' too: the harness lifts
  // that one for the click benchmarks.
  const env: Record<string, string> = {
    RATE_LIMIT_ANON: '1000000',
    RATE_LIMIT_KEYED: '1000000',
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => key.startsWith('WRITE_LIMIT_'))),
    WRITE_LIMIT_CLICKS: String(caps.click),
  };
  // A prefix of this run's own, removed at the end: the counters must not limit anyone else's runs.
  const keyPrefix = `booklink-bench:${process.pid}:`;
  if (redisUrl) Object.assign(env, { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: keyPrefix });
  const app = await startApp(url, env);
  const reader = openStore(url);
  let failed = false;
  try {
    console.log(machineFacts());
    console.log(
      `${writes} distinct anonymous writes of each kind from 127.0.0.1, ${workers} at a time, counters ${redisUrl ? 'in Redis' : 'in the process'}`,
    );
    for (const kind of kinds) {
      const before = await count(reader, kind.table);
      const started = performance.now();
      const statuses = await flood(app.url, kind);
      const seconds = (performance.now() - started) / 1000;
      if (kind.table === 'clicks') await new Promise((resolve) => setTimeout(resolve, 2500));
      const stored = (await count(reader, kind.table)) - before;
      const verdict = stored <= kind.cap ? 'MET' : 'MISSED';
      if (stored > kind.cap) failed = true;
      console.log(
        `${kind.name.padEnd(12)} cap ${String(kind.cap).padStart(4)}  stored ${String(stored).padStart(5)}  answers ${JSON.stringify(statuses)}  ${seconds.toFixed(1)} s  ${verdict}`,
      );
    }
  } finally {
    await reader.close();
    if ((await app.stop()) !== 0) failed = true;
    if (redisUrl) await dropKeys(redisUrl, keyPrefix);
  }
  if (failed) process.exitCode = 1;
});
