import { parentPort, workerData } from 'node:worker_threads';
import { packResults } from './packed-results.js';
import { openRows } from './rows.js';
import type { ParseResult } from './types.js';
import type { ReadRequest, WorkerMessage } from './worker-rows.js';

/**
 * Reads and parses a file in a worker thread and posts the results in chunks, so parsing one chunk
 * overlaps with the main thread writing the previous one. The main thread sends one message per chunk
 * it has taken, and the worker stays at most `window` chunks ahead.
 */
const port = parentPort;
if (!port) throw new Error('parse-worker.ts runs only as a worker thread');
const request = workerData as ReadRequest;
let credits = request.window;
let wake: (() => void) | null = null;
port.on('message', () => {
  credits++;
  wake?.();
  wake = null;
});
const post = (message: WorkerMessage) => port.postMessage(message);

async function run(): Promise<void> {
  const reader = openRows(request.file, request.gzip, request.detected, request.context, request.skip);
  let results: ParseResult[] = [];
  const send = async () => {
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    post({
      kind: 'rows',
      packed: packResults(results),
      bytesRead: reader.bytesRead(),
      malformed: reader.malformed(),
    });
    results = [];
  };
  for await (const parse of reader.rows) {
    results.push(parse());
    if (results.length === request.chunkRows) await send();
  }
  if (results.length > 0) await send();
  post({ kind: 'end', bytesRead: reader.bytesRead(), malformed: reader.malformed() });
}

run().catch((error: unknown) => {
  const { name, message, code } = error instanceof Error ? (error as Error & { code?: string }) : {};
  post({ kind: 'error', name: name ?? 'Error', message: message ?? String(error), code });
});
