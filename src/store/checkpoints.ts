import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Store } from './db.js';

/** What the last checkpoint did, as `PRAGMA wal_checkpoint` reports it (pages of the WAL). */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface CheckpointStats {
  /** Checkpoints run so far. */
  runs: number;
  /** Checkpoints that threw, and a thread that died (counted once). */
  failures: number;
  /** The last checkpoint's result, null before the first. */
  last: CheckpointResult | null;
}

export interface CheckpointOptions {
  /** Milliseconds between checkpoints. */
  intervalMs?: number;
  /**
   * Told of the first failure in a run of failures (a checkpoint that threw, or the thread dying), so a
   * disk that keeps failing is reported once, not every interval; a success starts a new run.
   */
  onFailure?: (error: string) => void;
}

export interface Checkpoints {
  stats(): CheckpointStats;
  /** Stops the thread; the connection's own checkpoints are restored. */
  close(): Promise<void>;
}

/**
 * WAL pages past which the server's connection checkpoints by itself, while the thread below runs:
 * only a stuck or dead thread lets the WAL grow this far (40 MB of 4 kB pages).
 */
const FALLBACK_PAGES = 10_000;
/** SQLite's own default, restored on close. */
const DEFAULT_PAGES = 1000;

// Plain CommonJS, run as an eval'd worker: a file would need the TypeScript loader under tsx.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true });
  db.pragma('busy_timeout = 1000');
} catch (error) {
  // Rethrown as a plain Error: a SqliteError reaches the parent thread without its message.
  throw new Error(String(error));
}
const timer = setInterval(() => {
  try {
    parentPort.postMessage({ result: db.pragma('wal_checkpoint(PASSIVE)')[0] });
  } catch (error) {
    parentPort.postMessage({ error: String(error) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * SQLite's WAL checkpoints, run by a thread of their own. SQLite checkpoints on the commit that takes
 * the WAL past 1,000 pages, in the committing connection, and the server has one: the copy back into
 * the database and its fsyncs held the event loop 20–100 ms at a time, every second under a busy
 * search log (bench/README). A second connection in a worker thread checkpoints every `intervalMs`
 * in PASSIVE mode, which never blocks the server's reads or writes; the server's connection keeps
 * checkpointing itself only past FALLBACK_PAGES. Durability is unchanged: a commit is durable as
 * `synchronous` says, whichever connection later copies it back. Null for an in-memory database or on
 * PostgreSQL.
 */
export function startCheckpoints(
  store: Pick<Store, 'sqlite'>,
  { intervalMs = 500, onFailure }: CheckpointOptions = {},
): Checkpoints | null {
  const sqlite = store.sqlite;
  if (!sqlite || sqlite.memory || sqlite.pragma('journal_mode', { simple: true }) !== 'wal') return null;
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { driver, file: sqlite.name, intervalMs },
    resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
  });
  worker.unref();
  let running = true;
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      running = false;
      resolve();
    }),
  );
  const counts: CheckpointStats = { runs: 0, failures: 0, last: null };
  let failing = false;
  const failed = (error: string) => {
    counts.failures += 1;
    if (!failing) onFailure?.(error);
    failing = true;
  };
  worker.on('message', (message: { result?: CheckpointResult; error?: string }) => {
    if (message.result) {
      counts.runs += 1;
      counts.last = message.result;
      failing = false;
    } else failed(message.error ?? 'unknown error');
  });
  // A thread that fails leaves the connection's own checkpoints to it, as before this existed.
  const fallBack = () => {
    if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${DEFAULT_PAGES}`);
  };
  worker.on('error', (error) => {
    failing = false;
    failed(`checkpoint thread stopped: ${error.message}`);
    fallBack();
  });
  sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
  return {
    stats: () => ({ ...counts }),
    close: async () => {
      if (running) {
        // Held until it has closed its connection: an unreferenced thread's exit would not be waited for.
        worker.ref();
        worker.postMessage('close');
      }
      await exited;
      fallBack();
    },
  };
}
