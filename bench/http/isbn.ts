/**
 * `/isbn/{isbn}` latency when the visit creates the book from the local catalog:
 * `npx tsx bench/http/isbn.ts [--catalog 5000] [--visits 1000]`.
 * Imports a synthetic catalog into a fresh SQLite database, starts the real server in a child process,
 * then visits distinct ISBNs once each, one after another (first visits: lookup + create + 302), and the
 * same ISBNs again (second visits: lookup + 302). Goal (issue 2): first visits under 20 ms at the median.
 */
import '../lib/help.js';
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { importCatalogFile } from '../../src/catalog/import/index.js';
import { openStore } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { BROWSER_UA, machineFacts, option, startApp, withTempDir } from '../lib/harness.js';

const catalogSize = option('catalog', 5000);
const visits = option('visits', 1000);
const WARMUP = 50;

function isbn13(serial: number): string {
  const first12 = `979${String(serial).padStart(9, '0')}`;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(first12[i]);
  return first12 + String((10 - (sum % 10)) % 10);
}

const WORDS = ['river', 'night', 'garden', 'winter', 'letters', 'empire', 'silence', 'harbour', 'atlas'];

function catalogLine(serial: number): string {
  const word = (offset: number) => WORDS[(serial + offset) % WORDS.length];
  return JSON.stringify({
    isbn13: isbn13(serial),
    title: `The ${word(0)} of ${word(3)} ${serial}`,
    authors: [`Author ${serial % 997}`],
    published_date: `${1950 + (serial % 70)}-01-01`,
    publisher: 'Synthetic Press',
    format: serial % 3 === 0 ? 'ebook' : 'paperback',
    pages: 100 + (serial % 400),
  });
}

async function buildCatalog(dir: string): Promise<string> {
  const file = join(dir, 'catalog.jsonl');
  const lines = Array.from({ length: catalogSize }, (_, i) => catalogLine(i + 1));
  writeFileSync(file, `${lines.join('\n')}\n`);
  const url = `sqlite:${join(dir, 'bench.db')}`;
  const store = openStore(url);
  try {
    await migrateToLatest(store);
    const summary = await importCatalogFile(store, file, {
      format: 'jsonl',
      coversBaseUrl: 'https://covers.openlibrary.org',
    });
    console.log(`catalog: ${summary.imported.toLocaleString('en-US')} synthetic entries imported`);
  } finally {
    await store.close();
  }
  return url;
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request on a kept-alive connection; answers milliseconds and the Location header. */
function timedGet(base: string, path: string): Promise<{ ms: number; status: number; location: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent, headers: { 'user-agent': BROWSER_UA } }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({
          ms: performance.now() - started,
          status: res.statusCode ?? 0,
          location: String(res.headers.location ?? ''),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function report(label: string, samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = percentile(sorted, 50);
  console.log(
    `${label.padEnd(40)} median ${median.toFixed(2)} ms, p90 ${percentile(sorted, 90).toFixed(2)} ms, ` +
      `p99 ${percentile(sorted, 99).toFixed(2)} ms, max ${(sorted.at(-1) ?? 0).toFixed(2)} ms (${sorted.length} visits)`,
  );
  return median;
}

/** Visits each ISBN once, in order; every visit must redirect to a book page. */
async function visit(base: string, serials: number[]): Promise<number[]> {
  const samples: number[] = [];
  for (const serial of serials) {
    const { ms, status, location } = await timedGet(base, `/isbn/${isbn13(serial)}`);
    if (status !== 302 || !location.startsWith('/book/')) {
      throw new Error(`/isbn/${isbn13(serial)} answered ${status} ${location}`);
    }
    samples.push(ms);
  }
  return samples;
}

await withTempDir(async (dir) => {
  if (visits + WARMUP > catalogSize) throw new Error('--visits must leave room in --catalog');
  const databaseUrl = await buildCatalog(dir);
  const app = await startApp(databaseUrl);
  try {
    console.log(machineFacts());
    // Spread over the catalog, so visits do not walk the index in insertion order.
    const step = Math.floor(catalogSize / (visits + WARMUP));
    const serials = Array.from({ length: visits + WARMUP }, (_, i) => 1 + i * step);
    await visit(app.url, serials.slice(0, WARMUP));
    const measured = serials.slice(WARMUP);
    const first = report('first visit (create from catalog + 302)', await visit(app.url, measured));
    report('second visit (existing book, 302)', await visit(app.url, measured));
    console.log(`goal: first visit median < 20 ms: ${first < 20 ? 'MET' : 'MISSED'}`);
    console.log(machineFacts());
  } finally {
    agent.destroy();
    if ((await app.stop()) !== 0) process.exitCode = 1;
  }
});
