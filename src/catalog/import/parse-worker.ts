import { parentPort, workerData } from 'node:worker_threads';
import { type StagedKind, type StagedLine, type StagedRow, stagedLineParser } from './openlibrary-staged.js';
import { type PackedResults, packResult } from './packed-results.js';
import { lineParser, openRows, type RowReader } from './rows.js';
import { readLineChunks } from './source.js';
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

type Progress = Pick<RowReader, 'bytesRead' | 'malformed'>;

async function run(): Promise<void> {
  const { file, gzip, parse, skip } = request;
  // Each catalog row is packed as soon as it is parsed: holding a chunk's parsed objects until it was
  // posted kept them alive across young-generation collections, which copied and promoted them. A
  // staged dump's lines are few fields each and cross as they are.
  let packed: PackedResults = [];
  let staged: Array<StagedLine<StagedRow<StagedKind>>> = [];
  let rows = 0;
  const send = async (progress: Progress) => {
    while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
    credits--;
    const chunk = 'staged' in parse ? staged : packed;
    post({ kind: 'rows', chunk, bytesRead: progress.bytesRead(), malformed: progress.malformed() });
    packed = [];
    staged = [];
    rows = 0;
  };
  let parseLine: ((line: string) => void) | null = null;
  if ('staged' in parse) {
    const parseStaged = stagedLineParser(parse.staged);
    parseLine = (line) => void staged.push(parseStaged(line));
  } else {
    const parseRow = lineParser(parse.detected);
    if (parseRow) parseLine = (line) => packResult(parseRow(line, parse.context), packed);
  }
  let progress: Progress;
  if (parseLine) {
    // Line formats: each stream chunk's lines are parsed in a plain loop, with no async generator
    // step (and its promises) per line.
    const source = readLineChunks(file, gzip);
    progress = source;
    let index = 0;
    for await (const lines of source.records) {
      for (const line of lines) {
        // Rows an earlier run committed are passed over unparsed.
        if (index++ < skip) continue;
        parseLine(line);
        if (++rows === request.chunkRows) await send(source);
      }
    }
  } else {
    // Only a catalog CSV has no line parser: its records span lines.
    if (!('detected' in parse)) throw new Error('a staged dump is read by lines');
    const reader = openRows(file, gzip, parse.detected, parse.context, skip);
    progress = reader;
    for await (const parseRow of reader.rows) {
      packResult(parseRow(), packed);
      if (++rows === request.chunkRows) await send(reader);
    }
  }
  if (rows > 0) await send(progress);
  post({ kind: 'end', bytesRead: progress.bytesRead(), malformed: progress.malformed() });
}

run().catch((error: unknown) => {
  const { name, message, code } = error instanceof Error ? (error as Error & { code?: string }) : {};
  post({ kind: 'error', name: name ?? 'Error', message: message ?? String(error), code });
});
