import { Worker } from 'node:worker_threads';
import type { DetectedFormat } from './detect.js';
import type { StagedKind, StagedLine, StagedLines, StagedRow } from './openlibrary-staged.js';
import { type PackedResults, unpackResults } from './packed-results.js';
import type { RowReader } from './rows.js';
import { ImportError, type ParseContext, type ParseResult } from './types.js';

/** What the parse worker is asked to read. */
export interface ReadRequest {
  file: string;
  gzip: boolean;
  /** What the lines are: catalog rows of a detected format, or an Open Library dump to stage. */
  parse: { detected: DetectedFormat; context: ParseContext } | { staged: StagedKind };
  /** Data rows an earlier run committed, passed over unparsed. */
  skip: number;
  chunkRows: number;
  /** Chunks the worker may post ahead of the ones taken. */
  window: number;
}

/** A chunk the worker posts: catalog rows packed flat, or a staged dump's parsed lines. */
export type WorkerChunk = PackedResults | Array<StagedLine<StagedRow<StagedKind>>>;

export type WorkerMessage =
  | { kind: 'rows'; chunk: WorkerChunk; bytesRead: number; malformed: number }
  | { kind: 'end'; bytesRead: number; malformed: number }
  | { kind: 'error'; name: string; message: string; code: string | undefined };

/**
 * The worker's heap, bounded: it only holds a few chunks of short-lived rows (a chunk is copied out
 * when posted), and V8's defaults let both generations grow by tens of megabytes of peak memory for no
 * measurable gain in speed (1M editions: peak RSS 395 → 370 MB with the old generation bounded).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 };

const RUNNING_TYPESCRIPT = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(`./parse-worker.${RUNNING_TYPESCRIPT ? 'ts' : 'js'}`, import.meta.url);

/**
 * Built code starts the worker file directly. Under tsx (tests, `npm run booklink`) a worker thread does
 * not inherit the TypeScript loader, so it registers tsx's before importing the `.ts` worker.
 */
function startWorker(workerData: ReadRequest): Worker {
  if (!RUNNING_TYPESCRIPT) return new Worker(WORKER_URL, { workerData, resourceLimits: WORKER_LIMITS });
  const bootstrap = `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(WORKER_URL.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(bootstrap, { eval: true, workerData, resourceLimits: WORKER_LIMITS });
}

function rethrown(message: Extract<WorkerMessage, { kind: 'error' }>): Error {
  if (message.name === 'ImportError') {
    return new ImportError(message.code as ImportError['code'], message.message);
  }
  return Object.assign(new Error(message.message), { name: message.name });
}

/** The chunks a worker posts, taken one at a time; the worker stays a window ahead. */
interface WorkerChunks {
  /** The next chunk, or null at the end of the file. */
  next(): Promise<WorkerChunk | null>;
  bytesRead(): number;
  malformed(): number;
  close(): Promise<void>;
}

/**
 * Starts a parse worker. `bytesRead` and `malformed` are as of the latest chunk received, like the
 * in-thread readers', which also run ahead of the rows taken.
 */
function workerChunks(request: ReadRequest): WorkerChunks {
  const worker = startWorker(request);
  const queue: WorkerMessage[] = [];
  let notify: (() => void) | null = null;
  let failure: Error | null = null;
  let ended = false;
  worker.on('message', (message: WorkerMessage) => {
    queue.push(message);
    notify?.();
  });
  worker.on('error', (error) => {
    failure = error;
    notify?.();
  });
  // A worker that dies without an error event (out of memory, killed) must not leave the import waiting.
  worker.on('exit', (code) => {
    failure ??= new Error(`parse worker exited (code ${code})`);
    notify?.();
  });
  let bytesRead = 0;
  let malformed = 0;
  return {
    async next() {
      if (ended) return null;
      while (queue.length === 0 && !failure) await new Promise<void>((resolve) => (notify = resolve));
      notify = null;
      const message = queue.shift();
      if (!message) throw failure ?? new Error('parse worker stopped');
      if (message.kind === 'error') throw rethrown(message);
      bytesRead = message.bytesRead;
      malformed = message.malformed;
      if (message.kind === 'end') {
        ended = true;
        return null;
      }
      worker.postMessage('more');
      return message.chunk;
    },
    bytesRead: () => bytesRead,
    malformed: () => malformed,
    close: async () => void (await worker.terminate()),
  };
}

/**
 * The rows of a file parsed in a worker thread: the same rows, results and counts as `openRows`, but
 * parsing runs on the second core while this thread writes.
 */
export function workerRows(
  request: Pick<ReadRequest, 'file' | 'gzip' | 'skip'> & { detected: DetectedFormat; context: ParseContext },
): RowReader {
  const { detected, context, ...read } = request;
  // Chunks of 250 rows, up to 8,000 ahead: a 1,000-row chunk being filled outlived a young-generation
  // collection or two in the worker, which copied and promoted it (1M editions: 2-5 % less CPU in all).
  const chunks = workerChunks({ ...read, parse: { detected, context }, chunkRows: 250, window: 32 });
  // The chunk being taken: `take` hands its rows out synchronously, so the writing thread does not pay
  // an async generator step and its promises for every row (it waits only once a chunk).
  let chunk: ParseResult[] = [];
  let taken = 0;
  const take = () => (taken < chunk.length ? chunk[taken++] : undefined);
  async function* rows(): AsyncGenerator<() => ParseResult> {
    try {
      for (;;) {
        const result = take();
        if (result) {
          yield () => result;
          continue;
        }
        const packed = await chunks.next();
        if (packed === null) return;
        // Catalog requests are answered with packed rows.
        chunk = unpackResults(packed as PackedResults);
        taken = 0;
      }
    } finally {
      await chunks.close();
    }
  }
  return {
    rows: rows(),
    take,
    bytesRead: chunks.bytesRead,
    malformed: chunks.malformed,
    close: chunks.close,
  };
}

/**
 * An Open Library authors or works dump's lines (after `skip`), parsed in a worker thread a chunk at
 * a time, while this thread writes the chunks before to the staging table.
 */
export function workerStagedLines<K extends StagedKind>(
  request: Pick<ReadRequest, 'file' | 'gzip' | 'skip'> & { staged: K },
): StagedLines<K> {
  const { staged, ...read } = request;
  // Up to 32,000 lines ahead: more than a batch (20,000 lines by default), so the next batch is parsed
  // while this thread writes the one before (PostgreSQL's server upserts it meanwhile).
  const chunks = workerChunks({ ...read, parse: { staged }, chunkRows: 1000, window: 32 });
  async function* lines() {
    try {
      for (;;) {
        const chunk = await chunks.next();
        if (chunk === null) return;
        // Staged requests are answered with the lines their kind's parser made.
        yield chunk as Array<StagedLine<StagedRow<K>>>;
      }
    } finally {
      await chunks.close();
    }
  }
  return { chunks: lines(), bytesRead: chunks.bytesRead };
}
