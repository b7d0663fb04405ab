/**
 * What the Open Library import benchmarks share: the synthetic dumps in .bench-tmp (generated once,
 * reused when present) and `booklink import-openlibrary` itself in a child process, run from `dist/`
 * as the installed command runs it (built once per benchmark run), so every number and every kill is
 * what an operator's command gets.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { nodeFlags } from '../../bin/node-flags.js';
import { buildOnce, ROOT } from './harness.js';
import { generateDumps } from './openlibrary-dumps.js';

export interface DumpPaths {
  editions: string;
  works: string;
  authors: string;
}

const BUILT_CLI = join(ROOT, 'dist', 'cli.js');
const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** The three dump files in `dir`, generated (N editions, deterministic) unless the editions file exists. */
export async function ensureDumps(editions: number, dir: string, gzip: boolean): Promise<DumpPaths> {
  const suffix = gzip ? '.gz' : '';
  const files = {
    editions: join(dir, `ol_dump_editions.txt${suffix}`),
    works: join(dir, `ol_dump_works.txt${suffix}`),
    authors: join(dir, `ol_dump_authors.txt${suffix}`),
  };
  if (!existsSync(files.editions)) {
    const started = performance.now();
    await generateDumps({ editions, out: dir, gzip });
    const seconds = (performance.now() - started) / 1000;
    console.log(`generated ${count(editions)} editions in ${seconds.toFixed(1)} s: ${dir}`);
  }
  return files;
}

export interface ImportExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  seconds: number;
  /** The child's peak RSS from /usr/bin/time -v, when it ran under it. */
  peakRssMb: number | null;
  /** The child's CPU time (user + system, both threads) from /usr/bin/time -v: meaningful on a loaded host. */
  cpuSeconds: number | null;
  output: string;
}

export interface ImportChild {
  /** The node process of the import itself (not a wrapper): a SIGKILL to it is a kill -9 of the import. */
  child: ChildProcess;
  exited: Promise<ImportExit>;
}

export interface ImportOptions {
  /** Run under /usr/bin/time -v (when present) for the peak RSS; the child is then the wrapper. */
  timed?: boolean;
  /** Told every line the import writes (progress and "Importing …" lines go to stderr), as it comes. */
  onLine?: (line: string) => void;
  /** Further arguments of the command (`--batch-size N`). */
  extraArgs?: readonly string[];
}

/** Starts `booklink import-openlibrary --editions … --works … --authors …` against a database. */
export function startImport(databaseUrl: string, files: DumpPaths, options: ImportOptions = {}): ImportChild {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: await runImport or buildOnce first`);
  // The V8 flags `bin/booklink.js` gives the command, without its wrapper process (a kill must reach the
  // import). Built code, as `bin/booklink.js` runs it: through tsx, every named closure would also be
  // wrapped in a `__name` call.
  const cli = [...nodeFlags('import-openlibrary'), BUILT_CLI, 'import-openlibrary'];
  cli.push('--editions', files.editions);
  cli.push('--works', files.works, '--authors', files.authors, ...(options.extraArgs ?? []));
  const timed = options.timed === true && existsSync('/usr/bin/time');
  const [command, argv] = timed
    ? ['/usr/bin/time', ['-v', process.execPath, ...cli]]
    : [process.execPath, cli];
  const started = performance.now();
  const child = spawn(command, argv, {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let partial = '';
  const take = (chunk: Buffer) => {
    const text = String(chunk);
    output += text;
    if (!options.onLine) return;
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) options.onLine(line);
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const exited = new Promise<ImportExit>((done, fail) => {
    child.on('error', fail);
    child.on('close', (code, signal) => {
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(output);
      const user = /User time \(seconds\): ([\d.]+)/.exec(output);
      const system = /System time \(seconds\): ([\d.]+)/.exec(output);
      done({
        code,
        signal,
        seconds: (performance.now() - started) / 1000,
        peakRssMb: rss ? Number(rss[1]) / 1024 : null,
        cpuSeconds: user && system ? Number(user[1]) + Number(system[1]) : null,
        output,
      });
    });
  });
  return { child, exited };
}

/** Runs the import to its end; throws with its output when it fails. */
export async function runImport(databaseUrl: string, files: DumpPaths, options: ImportOptions = {}) {
  await buildOnce();
  const run = await startImport(databaseUrl, files, options).exited;
  if (run.code !== 0) throw new Error(`import failed (${run.code ?? run.signal}):\n${run.output}`);
  return run;
}
