/**
 * Catalog import throughput: `npx tsx bench/import/csv.ts [file.csv] [--copies N] [--runs N]`.
 * Repeats the CSV (default: the goodbooks-10k derived file, read in place, never copied into the repo)
 * with distinct synthetic ISBNs into a temporary file, imports it into a fresh SQLite database and,
 * when reachable, a fresh PostgreSQL database, and prints rows per second: every run, then the median,
 * with the load average before each run (the host is shared; a loaded host says little).
 */
import '../lib/help.js';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { importCatalogFile } from '../../src/catalog/import/index.js';
import { openRows } from '../../src/catalog/import/rows.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createTestDatabase, postgresAvailable } from '../../test/support/databases.js';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const copiesAt = args.indexOf('--copies');
const copies = copiesAt >= 0 ? Number(args[copiesAt + 1]) : 20;
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const source = resolve(
  args.find((arg, i) => !arg.startsWith('--') && i !== copiesAt + 1 && i !== runsAt + 1) ??
    join(here, '../../../shared/data/goodbooks-10k/books_isbn_derived.csv'),
);

function isbn13CheckDigit(first12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(first12[i]);
  return String((10 - (sum % 10)) % 10);
}

const quote = (cell: string) => (/[",\n\r]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

/** The source rows `copies` times over; ISBN columns get distinct 979-prefixed ISBN-13s. */
async function buildInput(dir: string): Promise<{ file: string; rows: number }> {
  const [header = [], ...rows] = parse(readFileSync(source), {
    bom: true,
    relax_column_count: true,
  }) as string[][];
  const isbnColumns = header.map((name, i) => (/isbn/i.test(name) && !/source|valid/i.test(name) ? i : -1));
  const file = join(dir, 'bench.csv');
  const out = createWriteStream(file);
  out.write(`${header.map(quote).join(',')}\n`);
  let serial = 0;
  for (let copy = 0; copy < copies; copy++) {
    const lines: string[] = [];
    for (const row of rows) {
      const first12 = `979${String(++serial).padStart(9, '0')}`;
      const isbn = first12 + isbn13CheckDigit(first12);
      lines.push(row.map((cell, i) => (isbnColumns[i] !== -1 ? isbn : quote(cell))).join(','));
    }
    if (!out.write(`${lines.join('\n')}\n`))
      await new Promise<void>((done) => out.once('drain', () => done()));
  }
  await new Promise<void>((done) => out.end(() => done()));
  return { file, rows: serial };
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const rate = (n: number) => Math.round(n).toLocaleString('en-US');

/** One import into a fresh database; returns rows per second. */
async function importOnce(label: string, open: () => Promise<Store>, file: string, parseInWorker: boolean) {
  const before = load();
  const store = await open();
  try {
    await migrateToLatest(store);
    const summary = await importCatalogFile(store, file, {
      coversBaseUrl: 'https://covers.openlibrary.org',
      parseInWorker,
    });
    console.log(
      `${label.padEnd(16)} ${summary.rowsRead.toLocaleString('en-US')} rows, ${summary.imported.toLocaleString('en-US')} imported ` +
        `in ${(summary.elapsedMs / 1000).toFixed(2)} s: ${rate(summary.rowsPerSecond)} rows/s (load ${before})`,
    );
    return summary.rowsPerSecond;
  } finally {
    await store.close();
  }
}

async function measure(label: string, open: () => Promise<Store>, file: string, parseInWorker: boolean) {
  const rates: number[] = [];
  for (let run = 0; run < runs; run++) rates.push(await importOnce(label, open, file, parseInWorker));
  const sorted = [...rates].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(16)} median of ${runs}: ${rate(sorted[Math.floor(sorted.length / 2)] ?? 0)} rows/s`,
  );
}

/** Reading and mapping alone, no database: the ceiling the writers work under on this host. */
async function measureParsing(file: string): Promise<void> {
  const started = performance.now();
  const reader = openRows(file, false, { format: 'csv', delimiter: ',' }, { coversBaseUrl: '', now: '' });
  let rows = 0;
  for await (const parse of reader.rows) if (parse().ok) rows++;
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${'parse only'.padEnd(10)} ${rows.toLocaleString('en-US')} rows in ${seconds.toFixed(2)} s: ${Math.round(rows / seconds).toLocaleString('en-US')} rows/s`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'booklink-bench-'));
try {
  const input = await buildInput(dir);
  console.log(`input: ${source} x ${copies} = ${input.rows.toLocaleString('en-US')} rows (${input.file})`);
  console.log(`host: ${cpus().length} CPUs, load average ${load()}`);
  await measureParsing(input.file);
  let databases = 0;
  const freshSqlite = async () => openStore(`sqlite:${join(dir, `bench-${++databases}.db`)}`);
  await measure('sqlite', freshSqlite, input.file, true);
  await measure('sqlite 1 thread', freshSqlite, input.file, false);
  if (await postgresAvailable()) {
    const drops: Array<() => Promise<void>> = [];
    const freshPostgres = async () => {
      const database = await createTestDatabase('postgres');
      drops.push(database.drop);
      return openStore(database.url);
    };
    try {
      await measure('postgres', freshPostgres, input.file, true);
    } finally {
      for (const drop of drops) await drop();
    }
  } else {
    console.log('postgres   not reachable at postgres://postgres@127.0.0.1:5432/test: skipped');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
