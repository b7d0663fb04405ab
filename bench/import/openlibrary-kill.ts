/**
 * kill -9 during an Open Library import, then the same command again, against an uninterrupted import:
 * `npx tsx bench/import/openlibrary-kill.ts [--editions N] [--dialect sqlite|postgres|both] [--seed S] [--batch-size B]
 * [--dir D] [--keep]`.
 *
 * Per dialect: imports the synthetic dumps (N editions, default 1,000,000, + works + authors; generated
 * into D, default .bench-tmp/openlibrary-N, or reused) with `booklink import-openlibrary` in a child
 * process into a fresh database and takes the catalog's row counts and checksum (every entry and every
 * indexed identifier, without ids and timestamps: src/store/catalog-checksum.ts). Then, into another
 * fresh database, starts the same command, sends it SIGKILL at a random time of its editions phase
 * (a fraction of that phase's length in the uninterrupted run, drawn from --seed), runs the same
 * command again to its end and compares. `--batch-size` is passed to every run of the command (smaller
 * batches: more commits for a kill to land between in a small import). Prints both checksums; exits 1 on any mismatch, 2 when an
 * import ended before its kill (nothing was tested), 0 otherwise.
 */
import '../lib/help.js';
import { rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileKey } from '../../src/catalog/import/runs.js';
import { type CatalogChecksum, catalogChecksum } from '../../src/store/catalog-checksum.js';
import { openStore } from '../../src/store/db.js';
import { createTestDatabase, postgresAvailable } from '../../test/support/databases.js';
import { random } from '../lib/openlibrary-dumps.js';
import { type DumpPaths, ensureDumps, runImport, startImport } from '../lib/openlibrary-run.js';

const args = process.argv.slice(2);
const value = (flag: string) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
};
const editions = Number(value('--editions') ?? 1_000_000);
const dir = resolve(value('--dir') ?? `.bench-tmp/openlibrary-${editions}`);
const dialectFlag = value('--dialect') ?? 'both';
const dialects = dialectFlag === 'both' ? (['sqlite', 'postgres'] as const) : [dialectFlag];
const seed = Number(value('--seed') ?? Math.floor(Math.random() * 2 ** 31));
const batchSize = value('--batch-size');
const extraArgs = batchSize ? ['--batch-size', batchSize] : [];
if (!Number.isInteger(editions) || editions <= 0 || !Number.isInteger(seed)) {
  throw new Error('--editions and --seed take integers');
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const count = (n: number) => Math.round(n).toLocaleString('en-US');
/** The CLI's line announcing a file (`Importing …` or `Resuming at row N: …`) names the editions dump. */
const startsEditions = (line: string) => /^(Importing|Resuming at row [\d,]+:) .*ol_dump_editions/.test(line);
const show = (sum: CatalogChecksum) =>
  `${count(sum.rows)} entries, ${count(sum.identifiers)} identifiers, sha256 ${sum.hash}`;

async function checksumOf(url: string): Promise<CatalogChecksum> {
  const store = openStore(url);
  try {
    return await catalogChecksum(store.db);
  } finally {
    await store.close();
  }
}

/** What the killed import had committed: rows done of each dump file (by its run's file key). */
async function progressOf(url: string, paths: DumpPaths): Promise<string> {
  const store = openStore(url);
  try {
    const parts: string[] = [];
    for (const [kind, path] of Object.entries(paths)) {
      const run = await store.db
        .selectFrom('import_runs')
        .select(['rows_done', 'finished'])
        .where('file_key', '=', fileKey(path, statSync(path)))
        .executeTakeFirst();
      const state = !run ? 'nothing' : Number(run.finished) ? 'finished' : `${count(run.rows_done)} rows`;
      parts.push(`${kind} ${state}`);
    }
    return parts.join(', ');
  } finally {
    await store.close();
  }
}

// The dump generator's seeded generator: the same seed draws the same kill points.
const draw = random(seed).next;
console.log(
  `seed ${seed}; ${count(editions)} editions${batchSize ? `; --batch-size ${batchSize}` : ''}; load ${load()}`,
);
const files = await ensureDumps(editions, dir, false);
let mismatch = false;
let missed = false;

for (const dialect of dialects) {
  if (dialect !== 'sqlite' && dialect !== 'postgres') throw new Error(`unknown dialect ${dialect}`);
  const fraction = 0.05 + 0.9 * draw();
  if (dialect === 'postgres' && !(await postgresAvailable())) {
    console.log('postgres: not reachable, skipped');
    continue;
  }

  // 1. Uninterrupted, timing its editions phase (from the editions file's first line to the end).
  const whole = await createTestDatabase(dialect);
  let expected: CatalogChecksum;
  let editionsSeconds = 0;
  try {
    let editionsAt = 0;
    const run = await runImport(whole.url, files, {
      extraArgs,
      onLine: (line) => {
        if (startsEditions(line)) editionsAt = performance.now();
      },
    });
    if (editionsAt === 0) throw new Error(`no editions phase seen in the import's output:\n${run.output}`);
    editionsSeconds = (performance.now() - editionsAt) / 1000;
    expected = await checksumOf(whole.url);
    console.log(
      `${dialect.padEnd(8)} uninterrupted: ${run.seconds.toFixed(1)} s (editions phase ${editionsSeconds.toFixed(1)} s); ${show(expected)}`,
    );
  } finally {
    await whole.drop();
  }

  // 2. Killed at the drawn point of the editions phase, then the same command again.
  const killAfter = fraction * editionsSeconds;
  const resumed = await createTestDatabase(dialect);
  try {
    let timer: NodeJS.Timeout | undefined;
    const killed = startImport(resumed.url, files, {
      extraArgs,
      onLine: (line) => {
        if (!startsEditions(line) || timer) return;
        timer = setTimeout(() => killed.child.kill('SIGKILL'), killAfter * 1000);
      },
    });
    const exit = await killed.exited;
    clearTimeout(timer);
    if (exit.signal !== 'SIGKILL') {
      console.log(
        `${dialect.padEnd(8)} the import ended (${exit.code}) before its kill at ${killAfter.toFixed(1)} s into the editions: nothing tested`,
      );
      missed = true;
      continue;
    }
    console.log(
      `${dialect.padEnd(8)} SIGKILL at ${killAfter.toFixed(2)} s into the editions phase (${(fraction * 100).toFixed(1)} %), ` +
        `${exit.seconds.toFixed(1)} s after start; committed: ${await progressOf(resumed.url, files)}`,
    );
    const again = await runImport(resumed.url, files, { extraArgs });
    const resumeLine = again.output.split('\n').find((line) => startsEditions(line));
    const actual = await checksumOf(resumed.url);
    console.log(
      `${dialect.padEnd(8)} same command again: ${again.seconds.toFixed(1)} s (editions: ${resumeLine?.replace(/ \/.*$/, '') ?? 'not reread'}); ${show(actual)}`,
    );
    const same =
      actual.rows === expected.rows &&
      actual.identifiers === expected.identifiers &&
      actual.hash === expected.hash;
    console.log(`${dialect.padEnd(8)} ${same ? 'identical catalogs' : 'MISMATCH'}; load ${load()}`);
    if (!same) mismatch = true;
  } finally {
    await resumed.drop();
  }
}
if (!args.includes('--keep') && !value('--dir')) rmSync(dir, { recursive: true, force: true });
process.exitCode = mismatch ? 1 : missed ? 2 : 0;
