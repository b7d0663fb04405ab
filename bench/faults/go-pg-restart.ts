/**
 * A PostgreSQL restart under load (issue 11): wrk (its own process) sends /go/ at full speed while the
 * PostgreSQL cluster is stopped and started again; a poller asks `/readyz` and `/sitemap.xml` (a page
 * that needs the database) every 100 ms. The server must stay up, answer 503 (never 500) while the
 * database is gone and 200 after, and lose no click: every 302 wrk received is a click row at the end.
 *   npx tsx bench/faults/go-pg-restart.ts [--seconds 15] [--down-at 4] [--down-for 4] [--connections 10]
 * It restarts the machine's PostgreSQL (`pg_ctlcluster`): run it alone, never beside the test suite.
 */
import '../lib/help.js';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { openStore } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { addCatalogEntry } from '../../test/support/factories.js';
import { BENCH_ISBN, countClicks, createBook } from '../lib/fixtures.js';
import { machineFacts, option, startApp, withTempDir } from '../lib/harness.js';
import { BROWSER_HTML_HEADERS, wrk, wrkSummary } from '../lib/wrk.js';

const seconds = option('seconds', 15);
const downAt = option('down-at', 4);
const downFor = option('down-for', 4);
const connections = option('connections', 10);
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const version = readdirSync('/etc/postgresql')[0] ?? '15';

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  await client.query(statement);
  await client.end();
}

async function waitForPostgres(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const up = await admin('select 1').then(
      () => true,
      () => false,
    );
    if (up) return;
    await delay(200);
  }
  throw new Error('PostgreSQL did not come back');
}

const name = `bench_pg_restart_${process.pid}`;
const url = new URL(ADMIN_URL);
url.pathname = `/${name}`;
const databaseUrl = url.toString();

console.log(machineFacts());
await admin(`create database ${name}`);
let failed = false;
try {
  const store = openStore(databaseUrl);
  await migrateToLatest(store);
  await addCatalogEntry(store, {
    isbn13: BENCH_ISBN,
    title: 'Pride and Prejudice',
    authors: ['Jane Austen'],
  });
  await store.close();

  await withTempDir(async (dir) => {
    const app = await startApp(databaseUrl, { CLICK_WAL_DIR: join(dir, 'wal') });
    const slug = await createBook(app.url);
    const statuses = new Map<string, number>();
    let polling = true;
    const poller = (async () => {
      while (polling) {
        for (const path of ['/readyz', '/sitemap.xml']) {
          const status = await fetch(`${app.url}${path}`).then(
            async (response) => {
              await response.arrayBuffer();
              return String(response.status);
            },
            () => 'connection failed',
          );
          const key = `${path} ${status}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        }
        await delay(100);
      }
    })();
    const burst = wrk(`${app.url}/go/${slug}/amazon`, {
      connections,
      duration: seconds,
      headers: BROWSER_HTML_HEADERS,
      countStatuses: true,
      timeout: 5,
    });
    await delay(downAt * 1000);
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'stop', '-m', 'fast']);
    console.log(`PostgreSQL stopped at ${downAt} s`);
    await delay(downFor * 1000);
    execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
    await waitForPostgres();
    console.log(`PostgreSQL started again after ${downFor} s`);
    const result = await burst;
    await delay(1500);
    polling = false;
    await poller;
    const alive = app.child.exitCode === null;
    const code = await app.stop();
    const received = result.statuses['302'] ?? 0;
    const rows = await countClicks(databaseUrl);
    console.log(wrkSummary('/go/ burst across a PostgreSQL restart', result));
    console.log('poller answers:', Object.fromEntries([...statuses].sort()));
    const fiveHundreds = [...statuses.keys()].filter((key) => / 500$/.test(key));
    const lost = Math.max(0, received - rows);
    console.log(
      `server alive through the restart: ${alive}; exit ${code}; ${received} redirects, ${rows} clicks: lost ${lost}`,
    );
    if (!alive || code !== 0 || lost > 0 || fiveHundreds.length > 0) failed = true;
  });
} finally {
  await admin(`drop database if exists ${name} with (force)`);
}
console.log(machineFacts());
console.log(failed ? 'FAILED' : 'OK');
if (failed) process.exitCode = 1;
