/** Pieces of bench/http/api.ts: a small real catalog, and its yardstick servers in child processes. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { importCatalogFile } from '../../src/catalog/import/index.js';
import { openStore } from '../../src/store/db.js';
import { type ChildServer, freePort, ROOT } from './harness.js';

const GOODBOOKS = join(ROOT, '..', 'shared', 'data', 'goodbooks-10k', 'books_isbn_derived.csv');

/** The first `rows` goodbooks rows, written to a temporary CSV and imported with the real importer. */
export async function importCatalogSample(databaseUrl: string, dir: string, rows: number): Promise<number> {
  const lines = readFileSync(GOODBOOKS, 'utf8')
    .split('\n')
    .slice(0, rows + 1);
  const file = join(dir, 'catalog.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
  const store = openStore(databaseUrl);
  try {
    const summary = await importCatalogFile(store, file, {
      format: 'csv',
      coversBaseUrl: 'https://covers.openlibrary.org',
    });
    if (summary.imported < rows * 0.9) throw new Error(`only ${summary.imported} of ${rows} rows imported`);
    return summary.imported;
  } finally {
    await store.close();
  }
}

function nodeArgs(): string[] {
  return (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
}

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** bench/lib/api-reference-servers.ts in its own process, listening on a free port of 127.0.0.1. */
export async function startReference(args: string[], env: Record<string, string> = {}): Promise<ChildServer> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    // The minimal app is profiled alongside the real one (BENCH_NODE_ARGS, see harness.ts).
    [
      ...(args[0] === 'fastify' ? nodeArgs() : []),
      '--import',
      'tsx',
      'bench/lib/api-reference-servers.ts',
      ...args,
      String(port),
    ],
    {
      cwd: ROOT,
      env: { ...process.env, PROVIDERS: 'local', NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  running.add(child);
  const exited = once(child, 'exit').finally(() => running.delete(child));
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`reference server ${args[0]} exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (attempt > 300) throw new Error(`reference server ${args[0]} did not answer within 30 s`);
    await delay(100);
  }
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const [code] = await exited;
    return code as number | null;
  };
  return { url, child, stop };
}
