/**
 * Admin analytics at scale: 1,000,000 clicks over a year (skewed towards popular books, destinations
 * and countries), then the time of the analytics page (`GET /admin?days=30` and `?days=365`) through
 * real HTTP. Usage: `npx tsx bench/analytics.ts [sqlite|postgres] [clicks]`.
 */
import { performance } from 'node:perf_hooks';
import { adminDb } from '../src/store/admin-tables.js';
import { rollUpClicks } from '../src/store/analytics.js';
import { openStore } from '../src/store/db.js';
import { migrateToLatest } from '../src/store/migrate.js';
import { AdminClient, addUser } from '../test/integration/admin-support.js';
import { startTestApp } from '../test/support/app.js';
import { createTestDatabase } from '../test/support/databases.js';

const dialect = process.argv[2] === 'postgres' ? 'postgres' : 'sqlite';
const TOTAL = Number(process.argv[3] ?? 1_000_000);
const BOOKS = 5000;
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'NL', 'ES', 'IT', 'SE', null];
const REFERRERS = ['news.example', 'blog.example', 'social.example', 'forum.example', null, null];

/** Zipf-like pick: a few items get most of the traffic, as real clicks do. */
const skewed = (n: number) => Math.min(n - 1, Math.floor(n * Math.random() ** 3));

async function main(): Promise<void> {
  const database = await createTestDatabase(dialect);
  const store = openStore(database.url);
  try {
    await migrateToLatest(store);
    const now = Date.now();
    let start = performance.now();
    for (let done = 0; done < TOTAL; done += 2000) {
      const rows = Array.from({ length: Math.min(2000, TOTAL - done) }, () => ({
        book_id: skewed(BOOKS) + 1,
        destination_id: skewed(30) + 1,
        sfid: null,
        country: COUNTRIES[skewed(COUNTRIES.length)] ?? null,
        referrer_host: REFERRERS[skewed(REFERRERS.length)] ?? null,
        created_at: new Date(now - Math.random() * 365 * 86_400_000).toISOString(),
      }));
      // 2000 rows × 6 columns stays under both databases' bound-parameter limits.
      for (let i = 0; i < rows.length; i += 5000)
        await store.db
          .insertInto('clicks')
          .values(rows.slice(i, i + 5000))
          .execute();
    }
    console.log(
      `${dialect}: inserted ${TOTAL.toLocaleString('en')} clicks in ${((performance.now() - start) / 1000).toFixed(1)} s`,
    );
    start = performance.now();
    const days = await rollUpClicks(adminDb(store.db));
    console.log(
      `first roll-up of ${days} days: ${((performance.now() - start) / 1000).toFixed(2)} s (once; later runs roll one day)`,
    );

    const t = await startTestApp(store);
    await addUser(store, 'bench@example.test', 'admin');
    const client = new AdminClient(t);
    await client.login('bench@example.test');
    for (const period of [30, 365]) {
      const times: number[] = [];
      for (let i = 0; i < 12; i++) {
        const begin = performance.now();
        const page = await client.get(`/admin?days=${period}`);
        if (page.status !== 200) throw new Error(`analytics page answered ${page.status}`);
        times.push(performance.now() - begin);
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)] ?? 0;
      console.log(
        `GET /admin?days=${period}: median ${median.toFixed(0)} ms, max ${(times[times.length - 1] ?? 0).toFixed(0)} ms`,
      );
    }
    await t.close();
  } finally {
    await store.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
