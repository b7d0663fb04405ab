/**
 * Open Library dumps import, end to end: `npx tsx bench/import-openlibrary.ts [--editions N] [--dir D]
 * [--gzip] [--dialect sqlite|postgres|both] [--keep] [--database-url URL]`.
 * Generates N synthetic editions (+ works + authors, bench/openlibrary-dumps.ts) into D (default
 * .bench-tmp/openlibrary-N, reused when present), then imports them into a fresh database per dialect
 * in a child process (`booklink import-openlibrary` itself, so the number is what an operator gets) and
 * reports editions/s over the whole run (authors, works, editions, identifier and search indexes),
 * the child's peak RSS and CPU time (user + system; PostgreSQL's server time is not in it), the database size per million editions, and the load average before and after.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { createTestDatabase, postgresAvailable } from '../test/support/databases.js';
import { generateDumps } from './openlibrary-dumps.js';

const args = process.argv.slice(2);
const value = (flag: string) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};
const editions = Number(value('--editions') ?? 50_000);
const gzip = args.includes('--gzip');
const dir = resolve(value('--dir') ?? `.bench-tmp/openlibrary-${editions}${gzip ? '-gz' : ''}`);
const dialects = (value('--dialect') ?? 'both') === 'both' ? ['sqlite', 'postgres'] : [value('--dialect')];
/** Import into this database and keep it (for bench/lookup-openlibrary.ts) instead of a fresh one. */
const keepUrl = value('--database-url');
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** Runs the CLI under /usr/bin/time -v when present, for the child's own peak RSS (kB). */
function runImport(databaseUrl: string, files: { editions: string; works: string; authors: string }) {
  const cli = ['--import', 'tsx', 'src/cli.ts', 'import-openlibrary', '--editions', files.editions];
  cli.push('--works', files.works, '--authors', files.authors);
  const timed = existsSync('/usr/bin/time');
  const [command, argv] = timed
    ? ['/usr/bin/time', ['-v', process.execPath, ...cli]]
    : [process.execPath, cli];
  return new Promise<{
    seconds: number;
    peakRssMb: number | null;
    cpuSeconds: number | null;
    output: string;
  }>((done, fail) => {
    const started = performance.now();
    const child = spawn(command, argv as string[], {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += String(chunk)));
    child.stderr.on('data', (chunk) => (output += String(chunk)));
    child.on('error', fail);
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) return fail(new Error(`import failed (${code}):\n${output}`));
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(output);
      const user = /User time \(seconds\): ([\d.]+)/.exec(output);
      const system = /System time \(seconds\): ([\d.]+)/.exec(output);
      // The child's CPU time (both threads): unlike the rate, it means something on a loaded host.
      const cpuSeconds = user && system ? Number(user[1]) + Number(system[1]) : null;
      done({ seconds, peakRssMb: rss ? Number(rss[1]) / 1024 : null, cpuSeconds, output });
    });
  });
}

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

const files = {
  editions: join(dir, `ol_dump_editions.txt${gzip ? '.gz' : ''}`),
  works: join(dir, `ol_dump_works.txt${gzip ? '.gz' : ''}`),
  authors: join(dir, `ol_dump_authors.txt${gzip ? '.gz' : ''}`),
};
if (!existsSync(files.editions)) {
  const started = performance.now();
  await generateDumps({ editions, out: dir, gzip });
  console.log(
    `generated ${count(editions)} editions in ${((performance.now() - started) / 1000).toFixed(1)} s: ${dir}`,
  );
}
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
    const run = await runImport(database.url, files);
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
