/**
 * Open Library dumps import, end to end: `npx tsx bench/import/openlibrary.ts [--editions N] [--dir D]
 * [--gzip] [--dialect sqlite|postgres|both] [--keep] [--database-url URL]`.
 * Generates N synthetic editions (+ works + authors, bench/lib/openlibrary-dumps.ts) into D (default
 * .bench-tmp/openlibrary-N, reused when present), then imports them into a fresh database per dialect
 * in a child process (`booklink import-openlibrary` itself, so the number is what an operator gets) and
 * reports editions/s over the whole run (authors, works, editions, identifier and search indexes),
 * the child's peak RSS and CPU time (user + system; PostgreSQL's server time is not in it), the database size per million editions, and the load average before and after.
 */
import '../lib/help.js';
import { existsSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import pg from 'pg';
import { createTestDatabase, postgresAvailable } from '../../test/support/databases.js';
import { ensureDumps, runImport } from '../lib/openlibrary-run.js';

const args = process.argv.slice(2);
const value = (flag: string) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};
const editions = Number(value('--editions') ?? 50_000);
const gzip = args.includes('--gzip');
const dir = resolve(value('--dir') ?? `.bench-tmp/openlibrary-${editions}${gzip ? '-gz' : ''}`);
const dialects = (value('--dialect') ?? 'both') === 'both' ? ['sqlite', 'postgres'] : [value('--dialect')];
/** Import into this database and keep it (for bench/search/openlibrary-lookups.ts) instead of a fresh one. */
const keepUrl = value('--database-url');
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const count = (n: number) => Math.round(n).toLocaleString('en-US');

async function databaseBytes(dialect: string, url: string): Promise<number> {
  if (dialect === 'sqlite') {
    const file = url.slice('sqlite:'.length);
    return [file, `${file}-wal`].reduce((sum, path) => sum + (existsSync(path) ? statSync(path).size : 0), 0);
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ bytes: string }>(
      'select pg_database_size(current_database()) as bytes',
    );
    return Number(result.rows[0]?.bytes ?? 0);
  } finally {
    await client.end();
  }
}

const files = await ensureDumps(editions, dir, gzip);
const dumpBytes = Object.values(files).reduce((sum, file) => sum + statSync(file).size, 0);
console.log(`dumps: ${(dumpBytes / 1e6).toFixed(1)} MB${gzip ? ' (gzip)' : ''}; host: ${cpus().length} CPUs`);

for (const dialect of dialects) {
  if (dialect !== 'sqlite' && dialect !== 'postgres') throw new Error(`unknown dialect ${dialect}`);
  if (dialect === 'postgres' && !(await postgresAvailable())) {
    console.log('postgres: not reachable, skipped');
    continue;
  }
  const database = keepUrl
    ? { url: keepUrl, drop: async () => undefined }
    : await createTestDatabase(dialect);
  try {
    const before = load();
    const run = await runImport(database.url, files, { timed: true });
    const after = load();
    const bytes = await databaseBytes(dialect, database.url);
    const summary = run.output.split('\n').filter((line) => /^(Imported| {2}skipped|Removed)/.test(line));
    console.log(
      `${dialect.padEnd(8)} ${count(editions)} editions end to end in ${run.seconds.toFixed(1)} s: ` +
        `${count(editions / run.seconds)} editions/s; peak RSS ${run.peakRssMb === null ? 'n/a' : `${run.peakRssMb.toFixed(0)} MB`}; ` +
        `importer CPU ${run.cpuSeconds === null ? 'n/a' : `${run.cpuSeconds.toFixed(1)} s (${count(editions / run.cpuSeconds)} editions per CPU-second)`}; ` +
        `database ${(bytes / 1e6).toFixed(1)} MB (${((bytes / 1e9) * (1e6 / editions)).toFixed(2)} GB per million editions); ` +
        `load ${before} → ${after}`,
    );
    for (const line of summary) console.log(`         ${line}`);
    // The full dump: about 50 million editions, 40 million works, 14 million authors.
    console.log(
      `         full Open Library dump (~50M editions) at this rate: ${(50e6 / (editions / run.seconds) / 3600).toFixed(1)} h`,
    );
  } finally {
    await database.drop();
  }
}
if (!args.includes('--keep') && !value('--dir')) rmSync(dir, { recursive: true, force: true });
