/**
 * Admin analytics at scale: 1,000,000 clicks over a year (skewed towards popular books, destinations
 * and countries), then every analytics view through real HTTP with a signed-in session: the first
 * views while the server back-fills the roll-ups, the back-fill's duration, medians once it is done,
 * and first views after a restart. Usage: `npx tsx bench/http/analytics.ts [sqlite|postgres] [clicks]`.
 */
import '../lib/help.js';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { firstClickDay, rollupState } from '../../src/store/analytics-rollup.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { AdminClient, addUser } from '../../test/integration/admin-support.js';
import { startTestApp } from '../../test/support/app.js';
import { createTestDatabase } from '../../test/support/databases.js';

const dialect = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const TOTAL = Number(process.argv[3] ?? 1_000_000);
const BOOKS = 5000;
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'NL', 'ES', 'IT', 'SE', null];
const REFERRERS = ['news.example', 'blog.example', 'social.example', 'forum.example', null, null];
const PAGES = ['/admin?days=7', '/admin?days=30', '/admin?days=90', '/admin?days=365', '/admin?days=all'];
const CSVS = ['day', 'destination', 'book', 'country', 'referrer'].flatMap((by) =>
  ['30', '365', 'all'].map((days) => `/admin/analytics.csv?by=${by}&days=${days}`),
);
const RUNS = 12;

/** Zipf-like pick: a few items get most of the traffic, as real clicks do. */
const skewed = (n: number) => Math.min(n - 1, Math.floor(n * Math.random() ** 3));
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function insertClicks(store: Store): Promise<void> {
  const now = Date.now();
  const start = performance.now();
  // 2000 rows × 6 columns stays under both databases' bound-parameter limits.
  for (let done = 0; done < TOTAL; done += 2000) {
    const rows = Array.from({ length: Math.min(2000, TOTAL - done) }, () => ({
      book_id: skewed(BOOKS) + 1,
      destination_id: skewed(30) + 1,
      sfid: null,
      country: COUNTRIES[skewed(COUNTRIES.length)] ?? null,
      referrer_host: REFERRERS[skewed(REFERRERS.length)] ?? null,
      created_at: new Date(now - Math.random() * 365 * 86_400_000).toISOString(),
    }));
    await store.db.insertInto('clicks').values(rows).execute();
  }
  console.log(
    `${dialect}: inserted ${TOTAL.toLocaleString('en')} clicks in ${ms(performance.now() - start)}`,
  );
}

async function timed(client: AdminClient, path: string): Promise<{ time: number; body: string }> {
  const begin = performance.now();
  const response = await client.get(path);
  const time = performance.now() - begin;
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return { time, body: response.body };
}

async function signedIn(store: Store) {
  const t = await startTestApp(store);
  const client = new AdminClient(t);
  await client.login('bench@example.test');
  return { t, client };
}

/** The server starts the back-fill on its own; the first views must answer at once meanwhile. */
async function duringBackfill(store: Store): Promise<void> {
  const start = performance.now();
  const { t, client } = await signedIn(store);
  for (const path of PAGES) {
    const { time, body } = await timed(client, path);
    const note = /still being counted/.test(body) ? 'with back-fill note' : 'complete';
    console.log(`cold first view during back-fill ${path}: ${ms(time)} (${note})`);
  }
  const db = store.db;
  const during: number[] = [];
  for (;;) {
    const [state, first] = await Promise.all([rollupState(db), firstClickDay(db)]);
    if (state.from !== null && first !== null && first >= state.from) break;
    during.push((await timed(client, '/admin?days=30')).time);
    await delay(200);
  }
  during.sort((a, b) => a - b);
  console.log(
    `back-fill of a year in the background: ${ms(performance.now() - start)}; /admin?days=30 meanwhile: median ${ms(during[Math.floor(during.length / 2)] ?? 0)}, max ${ms(during.at(-1) ?? 0)} (${during.length} requests)`,
  );
  await t.close();
}

async function medians(store: Store): Promise<void> {
  const { t, client } = await signedIn(store);
  for (const path of PAGES) {
    const { time } = await timed(client, path);
    console.log(`first view after restart ${path}: ${ms(time)}`);
  }
  for (const path of [...PAGES, ...CSVS]) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push((await timed(client, path)).time);
    times.sort((a, b) => a - b);
    console.log(`GET ${path}: median ${ms(times[Math.floor(RUNS / 2)] ?? 0)}, max ${ms(times.at(-1) ?? 0)}`);
  }
  await t.close();
}

async function main(): Promise<void> {
  const database = await createTestDatabase(dialect);
  const store = openStore(database.url);
  try {
    await migrateToLatest(store);
    await insertClicks(store);
    await addUser(store, 'bench@example.test', 'admin');
    await duringBackfill(store);
    await medians(store);
  } finally {
    await store.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
