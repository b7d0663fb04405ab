/**
 * Shared pieces of the benchmarks: command-line options, the machine's facts, servers in child processes
 * (so the load generator, bench/lib/wrk.ts, never shares their event loop), CPU time from /proc and
 * temporary directories.
 * Everything listens on 127.0.0.1 and every run is bounded in time or in requests.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

/** `--name value` from the command line, or the fallback. */
export function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at >= 0 ? Number(process.argv[at + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

/** `--name value` from the command line as text, or the fallback. */
export function textOption(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

export function flag(name: string): boolean {
  return process.argv.includes(`--${name}`);
}

export function machineFacts(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const load = loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return `node ${process.version}, ${cpus().length} × ${cpu}, load average ${load}`;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** SIGTERM and wait; resolves to the exit code (a graceful shutdown answers 0). */
  stop(): Promise<number | null>;
}

const running = new Set<ChildProcess>();
// A benchmark that fails or is interrupted must not leave servers behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => process.exit(130));
}

/** Starts a server script in its own process and waits until `readyPath` answers. */
async function startChild(args: string[], env: Record<string, string>, port: number, readyPath: string) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    // Request logs go nowhere, as they would to a log shipper; errors stay visible.
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  running.add(child);
  const exited = once(child, 'exit').finally(() => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    const ok = await fetch(`${url}${readyPath}`, { redirect: 'manual' }).then(
      (response) => response.status < 500,
      () => false,
    );
    if (ok) break;
    if (attempt > 300) throw new Error(`${args.join(' ')} did not answer within 30 s`);
    await delay(100);
  }
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const [code] = await exited;
    return code as number | null;
  };
  return { url, child, stop };
}

/** Extra node flags for the app process, e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=prof". */
function nodeArgs(): string[] {
  return (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
}

let built: Promise<void> | null = null;

/** `npm run build` once per benchmark run, so the app runs from a `dist/` of this very source. */
export function buildOnce(): Promise<void> {
  built ??= (async () => {
    const build = spawn('npm', ['run', '--silent', 'build'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const [code] = await once(build, 'exit');
    if (code !== 0) throw new Error(`npm run build exited with ${code}`);
  })();
  return built;
}

/**
 * `booklink serve` exactly as an operator runs it: `npm start`'s `node dist/cli.js serve`, built from
 * this source first (through tsx, the app would also run tsx's own additions, such as a `__name` call
 * wherever a named closure is made), with request logging on, to a discarded stdout.
 */
export async function startApp(databaseUrl: string, env: Record<string, string> = {}): Promise<ChildServer> {
  await buildOnce();
  const port = await freePort();
  const settings = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    BASE_URL: `http://127.0.0.1:${port}`,
    PROVIDERS: 'local',
    NODE_ENV: 'production',
    // Every click of a load test comes from one address: the benchmarks measure recording them all.
    WRITE_LIMIT_CLICKS: '1000000',
    ...env,
  };
  return startChild([...nodeArgs(), 'dist/cli.js', 'serve'], settings, port, '/healthz');
}

/** The bare `node:http` yardstick (bench/lib/bare-server.ts): `page <file>`, `redirect <url>` or `busy <ms>`. */
export async function startBare(
  mode: 'page' | 'redirect' | 'busy',
  argument: string,
  extra: readonly string[] = [],
): Promise<ChildServer> {
  const port = await freePort();
  const args = ['--import', 'tsx', 'bench/lib/bare-server.ts', mode, argument, String(port), ...extra];
  return startChild(args, {}, port, '/');
}

/** CPU seconds (user + system) a server process has used so far, from /proc (Linux). */
export function cpuSecondsOf(server: ChildServer): number {
  const stat = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces): state is the first, utime the 12th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** A temporary directory removed when `body` ends, whatever happens. */
export async function withTempDir<T>(body: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'booklink-bench-'));
  try {
    return await body(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
