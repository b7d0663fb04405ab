import { Worker } from 'node:worker_threads';
import type { DetectedFormat } from './detect.js';
import { type PackedResults, unpackResults } from './packed-results.js';
import type { RowReader } from './rows.js';
import { ImportError, type ParseContext, type ParseResult } from './types.js';

/** What the parse worker is asked to read. */
export interface ReadRequest {
  file: string;
  gzip: boolean;
  detected: DetectedFormat;
  context: ParseContext;
  /** Data rows an earlier run committed, passed over unparsed. */
  skip: number;
  chunkRows: number;
  /** Chunks the worker may post ahead of the ones taken. */
  window: number;
}

export type WorkerMessage =
  | { kind: 'rows'; packed: PackedResults; bytesRead: number; malformed: number }
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

/**
 * The rows of a file parsed in a worker thread: the same rows, results and counts as `openRows`, but
 * parsing runs on the second core while this thread writes. `bytesRead` and `malformed` are as of the
 * latest chunk received, like the in-thread reader's, which also runs ahead of the rows taken.
 */
export function workerRows(request: Omit<ReadRequest, 'chunkRows' | 'window'>): RowReader {
  // Chunks of 250 rows, up to 8,000 ahead: a 1,000-row chunk being filled outlived a young-generation
  // collection or two in the worker, which copied and promoted it (1M editions: 2-5 % less CPU in all).
  const worker = startWorker({ ...request, chunkRows: 250, window: 32 });
  const queue: WorkerMessage[] = [];
  let notify: (() => void) | null = null;
  let failure: Error | null = null;
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
        while (queue.length === 0 && !failure) await new Promise<void>((resolve) => (notify = resolve));
        notify = null;
        const message = queue.shift();
        if (!message) throw failure ?? new Error('parse worker stopped');
        if (message.kind === 'error') throw rethrown(message);
        bytesRead = message.bytesRead;
        malformed = message.malformed;
        if (message.kind === 'end') return;
        worker.postMessage('more');
        chunk = unpackResults(message.packed);
        taken = 0;
      }
    } finally {
      await worker.terminate();
    }
  }
  return {
    rows: rows(),
    take,
    bytesRead: () => bytesRead,
    malformed: () => malformed,
    close: async () => void (await worker.terminate()),
  };
}
