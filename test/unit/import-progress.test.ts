import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WriteStream } from 'node:tty';
import { createTerminalProgress } from '../../src/catalog/import/progress.js';
import type { FinishingEvent, ImportProgress } from '../../src/catalog/import/summary.js';

/** A terminal's stream that keeps what is written (a `tty.WriteStream` whose writes go nowhere else). */
function terminal(isTTY: boolean): { stream: WriteStream; written: () => string } {
  const chunks: string[] = [];
  const stream = Object.create(WriteStream.prototype) as WriteStream;
  Object.defineProperty(stream, 'isTTY', { value: isTTY });
  stream.write = (chunk: string | Uint8Array) => {
    chunks.push(String(chunk));
    return true;
  };
  return { stream, written: () => chunks.join('') };
}

const rows: ImportProgress = {
  file: '/dumps/ol_dump_editions.txt',
  format: 'openlibrary',
  rowsDone: 9_980_000,
  imported: 9_937_097,
  skipped: 42_903,
  bytesDone: 998,
  totalBytes: 1000,
  rowsPerSecond: 21_351,
  elapsedMs: 467_000,
  etaSeconds: 1,
};
const last: ImportProgress = {
  ...rows,
  rowsDone: 10_000_000,
  imported: 9_957_097,
  bytesDone: 1000,
  etaSeconds: 0,
};

const indexes: FinishingEvent[] = [
  { kind: 'phase', title: 'Building the indexes this first import deferred', steps: 2 },
  { kind: 'step', name: 'identifier index', done: 1, steps: 2, elapsedMs: 34_321 },
  { kind: 'step', name: 'index catalog_entries_isbn13', done: 2, steps: 2, elapsedMs: 3_940 },
  { kind: 'phase', title: 'Refreshing the search statistics', steps: 1 },
];

describe('import progress on the terminal', () => {
  it('ends the rewritten line at the last report before the finishing lines, one a phase and a step', () => {
    const { stream, written } = terminal(true);
    const progress = createTerminalProgress({ stream });
    progress.onProgress(rows);
    // Within the interval: held back, then written before the first finishing line.
    progress.onProgress(last);
    for (const event of indexes) progress.onFinishing(event);
    progress.done();
    assert.equal(
      written(),
      '\r\x1b[2Kol_dump_editions.txt: 9,980,000 rows (99.8%), 9,937,097 imported, 42,903 skipped, 21,351 rows/s, ETA 1s' +
        '\r\x1b[2Kol_dump_editions.txt: 10,000,000 rows (100.0%), 9,957,097 imported, 42,903 skipped, 21,351 rows/s, ETA 0s\n' +
        'Building the indexes this first import deferred (2 steps)\n' +
        '  identifier index: 34.3 s (1 of 2)\n' +
        '  index catalog_entries_isbn13: 3.9 s (2 of 2)\n' +
        'Refreshing the search statistics (1 step)\n',
    );
  });

  it('writes plain lines to a log, the last report too, and nothing when quiet', () => {
    const log = terminal(false);
    const plain = createTerminalProgress({ stream: log.stream });
    plain.onProgress(rows);
    plain.onProgress(last);
    plain.onFinishing({ kind: 'step', name: 'search statistics', done: 1, steps: 1, elapsedMs: 12_049 });
    plain.done();
    assert.deepEqual(log.written().split('\n'), [
      'ol_dump_editions.txt: 9,980,000 rows (99.8%), 9,937,097 imported, 42,903 skipped, 21,351 rows/s, ETA 1s',
      'ol_dump_editions.txt: 10,000,000 rows (100.0%), 9,957,097 imported, 42,903 skipped, 21,351 rows/s, ETA 0s',
      '  search statistics: 12.0 s (1 of 1)',
      '',
    ]);
    const silent = terminal(false);
    const quiet = createTerminalProgress({ stream: silent.stream, quiet: true });
    quiet.onProgress(rows);
    quiet.onProgress(last);
    for (const event of indexes) quiet.onFinishing(event);
    quiet.done();
    assert.equal(silent.written(), '');
  });
});
