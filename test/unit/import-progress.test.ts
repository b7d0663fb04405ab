import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WriteStream } from 'node:tty';
import { createTerminalProgress } from '../../src/catalog/import/progress.js';
import type { ImportProgress } from '../../src/catalog/import/summary.js';

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

describe('import progress on the terminal', () => {
  it('ends the rewritten progress line before the finishing lines, one line a phase and a step', () => {
    const { stream, written } = terminal(true);
    const progress = createTerminalProgress({ stream });
    progress.onProgress(rows);
    progress.onFinishing({
      kind: 'phase',
      title: 'Building the indexes this first import deferred',
      steps: 2,
    });
    progress.onFinishing({ kind: 'step', name: 'identifier index', done: 1, steps: 2, elapsedMs: 34_321 });
    progress.onFinishing({
      kind: 'step',
      name: 'index catalog_entries_isbn13',
      done: 2,
      steps: 2,
      elapsedMs: 3_940,
    });
    progress.onFinishing({ kind: 'phase', title: 'Refreshing the search statistics', steps: 1 });
    progress.done();
    assert.equal(
      written(),
      '\r\x1b[2Kol_dump_editions.txt: 9,980,000 rows (99.8%), 9,937,097 imported, 42,903 skipped, 21,351 rows/s, ETA 1s\n' +
        'Building the indexes this first import deferred (2 steps)\n' +
        '  identifier index: 34.3 s (1 of 2)\n' +
        '  index catalog_entries_isbn13: 3.9 s (2 of 2)\n' +
        'Refreshing the search statistics (1 step)\n',
    );
  });

  it('writes plain lines to a log, and nothing when quiet', () => {
    const log = terminal(false);
    const plain = createTerminalProgress({ stream: log.stream });
    plain.onProgress(rows);
    plain.onFinishing({ kind: 'step', name: 'search statistics', done: 1, steps: 1, elapsedMs: 12_049 });
    assert.match(log.written(), /ETA 1s\n {2}search statistics: 12\.0 s \(1 of 1\)\n$/);
    const silent = terminal(false);
    const quiet = createTerminalProgress({ stream: silent.stream, quiet: true });
    quiet.onProgress(rows);
    quiet.onFinishing({ kind: 'phase', title: 'Refreshing the search statistics', steps: 1 });
    assert.equal(silent.written(), '');
  });
});
