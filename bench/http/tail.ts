/**
 * Issue 48's table in one command: throughput and the tail (p50, p99, p99.9) of the routes a reader
 * meets, each beside a bare node:http server measured by the same wrk in the same run, at 10 and 50
 * connections: `/book/{slug}` over many books in rotation (against a bare server sending a page of
 * the same size), `/go/{slug}/{destination}` (against a bare 302), `/api/v1/search` with one query
 * repeated (its answer cached) and with distinct catalog queries and no answer cache, and
 * `/api/v1/resolve` of one known store URL, with the service's event-loop delay (p99, max) during each run.
 * `npx tsx bench/http/tail.ts [--catalog examples/books.csv] [--books 200] [--duration 10] [--warmup 2]
 *   [--database sqlite|postgres] [--only book,go,search,resolve] [--connections 10,50]`
 * (`--catalog` takes any CSV `booklink import` reads; its most popular `--books` become book pages).
 * The server is `npm start`'s `node dist/cli.js serve`, built from this source, on SQLite, or with
 * `--database postgres` on a PostgreSQL database created for the run (`bench_tail_<pid>` on the server of
 * `--postgres-url`, default `TEST_POSTGRES_URL` or postgres://postgres@127.0.0.1:5432/test) and dropped after.
 */
import '../lib/help.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../../src/store/db.js';
import {
  BROWSER_UA,
  buildOnce,
  type ChildServer,
  cpuSecondsOf,
  machineFacts,
  option,
  ROOT,
  startApp,
  startBare,
  textOption,
  withTempDir,
} from '../lib/harness.js';
import { rawGet, type WrkRun, wrk, wrkSummary } from '../lib/wrk.js';

const catalog = textOption('catalog', join(ROOT, 'examples/books.csv'));
const books = option('books', 200);
const duration = option('duration', 10);
const warmup = option('warmup', 2);
const database = textOption('database', 'sqlite');
const postgresUrl = textOption(
  'postgres-url',
  process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
);
const only = new Set(textOption('only', 'book,go,search,resolve').split(','));
const connectionCounts = textOption('connections', '10,50').split(',').map(Number);
const headers = { 'user-agent': BROWSER_UA, accept: 'text/html' };

if (database !== 'sqlite' && database !== 'postgres') throw new Error('--database is sqlite or postgres');

/** A database for this run: a file in `dir`, or a PostgreSQL database created now; `drop` removes it. */
async function createDatabase(dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (database === 'sqlite') return { url: `sqlite:${join(dir, 'tail.db')}`, drop: async () => undefined };
  const name = `bench_tail_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

async function importCatalog(databaseUrl: string): Promise<void> {
  await buildOnce();
  const child = spawn(process.execPath, ['dist/cli.js', 'import', catalog], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`booklink import ${catalog} exited with ${code}`);
}

/** The catalog's most popular entries with an ISBN: the books whose pages are visited. */
async function popularEntries(databaseUrl: string) {
  const store = openStore(databaseUrl);
  try {
    return await store.db
      .selectFrom('catalog_entries')
      .select(['isbn13', 'isbn10', 'title'])
      .where('isbn13', 'is not', null)
      .orderBy('popularity', 'desc')
      .limit(books)
      .execute();
  } finally {
    await store.close();
  }
}

/** Creates each book as a reader's first visit does (`/isbn/`), answering the slugs. */
async function createBooks(baseUrl: string, isbns: readonly string[]): Promise<string[]> {
  const slugs: string[] = [];
  for (const isbn of isbns) {
    const response = await fetch(`${baseUrl}/isbn/${isbn}`, { redirect: 'manual', headers });
    const location = response.headers.get('location');
    if (response.status === 302 && location?.startsWith('/book/'))
      slugs.push(location.slice('/book/'.length));
  }
  return slugs;
}

interface Row {
  route: string;
  connections: number;
  app: WrkRun;
  appCpu: number;
  /** The server's event-loop delay during the run (its /metrics), in ms. */
  loop?: LoopDelay;
  bare: WrkRun | null;
}

interface LoopDelay {
  p99: number;
  max: number;
}

/**
 * The event-loop delay since the last scrape, as the service's /metrics reports it (prom-client's
 * `nodejs_eventloop_lag_*`, from `monitorEventLoopDelay`, reset at every scrape); null for a bare server.
 */
async function loopDelay(server: ChildServer): Promise<LoopDelay | null> {
  const response = await fetch(`${server.url}/metrics`).catch(() => null);
  if (!response?.ok) return null;
  const text = await response.text();
  const seconds = (name: string) =>
    Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    p99: 1000 * seconds('nodejs_eventloop_lag_p99_seconds'),
    max: 1000 * seconds('nodejs_eventloop_lag_max_seconds'),
  };
}

async function measure(
  server: ChildServer,
  url: string,
  connections: number,
  paths: readonly string[] | undefined,
  okStatus: (run: WrkRun) => boolean = (run) => run.non2xx === 0,
): Promise<{ run: WrkRun; cpu: number; loop?: LoopDelay }> {
  await wrk(url, { connections, duration: warmup, headers, ...(paths ? { paths } : {}) });
  const scraped = await loopDelay(server); // resets the histogram: what follows is this run's
  const before = cpuSecondsOf(server);
  const run = await wrk(url, { connections, duration, headers, ...(paths ? { paths } : {}) });
  const cpu = (cpuSecondsOf(server) - before) / run.seconds;
  const loop = scraped ? await loopDelay(server) : null;
  if (!okStatus(run)) throw new Error(`${url}: ${run.non2xx} failed responses`);
  return { run, cpu, ...(loop ? { loop } : {}) };
}

const ms = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));

function table(rows: readonly Row[]): string {
  const lines = [
    '| route | connections | req/s | bare req/s | ratio | p50 | p99 | p99.9 | bare p99 | server CPU | loop delay p99 / max |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { route, connections, app, appCpu, loop, bare } of rows) {
    const { p50, p99, p999 } = app.latencyMs;
    const ratio = bare ? `${Math.round((100 * app.rate) / bare.rate)} %` : '—';
    lines.push(
      `| ${route} | ${connections} | ${Math.round(app.rate).toLocaleString('en-US')} | ` +
        `${bare ? Math.round(bare.rate).toLocaleString('en-US') : '—'} | ${ratio} | ${ms(p50)} ms | ` +
        `${ms(p99)} ms | ${ms(p999)} ms | ${bare ? `${ms(bare.latencyMs.p99)} ms` : '—'} | ${Math.round(appCpu * 100)} % | ${loop ? `${ms(loop.p99)} / ${ms(loop.max)} ms` : '—'} |`,
    );
  }
  return lines.join('\n');
}

await withTempDir(async (dir) => {
  const created = await createDatabase(dir);
  try {
    await run(dir, created.url);
  } finally {
    await created.drop();
  }
});

async function run(dir: string, databaseUrl: string): Promise<void> {
  await importCatalog(databaseUrl);
  const entries = await popularEntries(databaseUrl);
  const limits = {
    RATE_LIMIT_ANON: '1000000',
    WRITE_LIMIT_BOOKS: '1000000',
    WRITE_LIMIT_CLICKS: '1000000',
    WRITE_LIMIT_SEARCHES: '1000000',
  };
  const app = await startApp(databaseUrl, limits);
  const uncached = await startApp(databaseUrl, { ...limits, SEARCH_CACHE_MS: '0' });
  try {
    const slugs = await createBooks(
      app.url,
      entries.map((entry) => entry.isbn13 ?? ''),
    );
    if (slugs.length === 0) throw new Error(`no book could be created from ${catalog}`);
    const first = slugs[0] ?? '';
    const page = await rawGet(`${app.url}/book/${first}`, headers);
    const pageFile = join(dir, 'page.html');
    writeFileSync(pageFile, page.body);
    const barePage = await startBare('page', pageFile);
    const bareRedirect = await startBare('redirect', 'https://www.amazon.com/dp/0141439513');
    const known = entries.find((entry) => entry.isbn10);
    const queries = entries.map((entry) => `/api/v1/search?q=${encodeURIComponent(entry.title)}`);
    console.log(machineFacts());
    console.log(
      `${database}; ${slugs.length} books from ${catalog}; a page of ${page.body.length.toLocaleString('en-US')} bytes ` +
        `(identity); wrk ${duration} s a run after ${warmup} s of warm-up`,
    );
    const rows: Row[] = [];
    const report = (row: Row) => {
      rows.push(row);
      console.log(wrkSummary(`${row.route} c${row.connections}`, row.app));
      if (row.bare) console.log(wrkSummary(`  bare c${row.connections}`, row.bare));
    };
    for (const connections of connectionCounts) {
      if (only.has('book')) {
        const bare = await measure(barePage, `${barePage.url}/`, connections, undefined);
        const book = await measure(
          app,
          `${app.url}/`,
          connections,
          slugs.map((slug) => `/book/${slug}`),
        );
        report({
          route: '`/book/{slug}`',
          connections,
          app: book.run,
          appCpu: book.cpu,
          loop: book.loop,
          bare: bare.run,
        });
      }
      if (only.has('go')) {
        // wrk counts 3xx as success: a redirect is what both answer.
        const bare302 = await measure(bareRedirect, `${bareRedirect.url}/`, connections, undefined);
        const go = await measure(
          app,
          `${app.url}/`,
          connections,
          slugs.map((slug) => `/go/${slug}/amazon`),
        );
        report({
          route: '`/go/{slug}/amazon`',
          connections,
          app: go.run,
          appCpu: go.cpu,
          loop: go.loop,
          bare: bare302.run,
        });
      }
      if (only.has('search')) {
        const cached = await measure(
          app,
          `${app.url}${queries[0] ?? '/api/v1/search?q=pride'}`,
          connections,
          undefined,
        );
        report({
          route: '`/api/v1/search`, one query (cached)',
          connections,
          app: cached.run,
          appCpu: cached.cpu,
          loop: cached.loop,
          bare: null,
        });
        const distinct = await measure(uncached, `${uncached.url}/`, connections, queries);
        report({
          route: `\`/api/v1/search\`, ${queries.length} distinct queries, no answer cache`,
          connections,
          app: distinct.run,
          appCpu: distinct.cpu,
          loop: distinct.loop,
          bare: null,
        });
      }
      if (only.has('resolve') && known?.isbn10) {
        const url = `https://www.amazon.com/dp/${known.isbn10}`;
        const resolve = await measure(
          app,
          `${app.url}/api/v1/resolve?url=${encodeURIComponent(url)}`,
          connections,
          undefined,
        );
        report({
          route: '`/api/v1/resolve`, one Amazon URL',
          connections,
          app: resolve.run,
          appCpu: resolve.cpu,
          loop: resolve.loop,
          bare: null,
        });
      }
    }
    console.log(`\n${table(rows)}`);
    console.log(machineFacts());
    await barePage.stop();
    await bareRedirect.stop();
  } finally {
    const codes = [await app.stop(), await uncached.stop()];
    if (codes.some((code) => code !== 0)) console.error(`booklink exited with ${codes.join(', ')}`);
  }
}
