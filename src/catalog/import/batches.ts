import { type BulkStore, openBulkSession } from '../../store/catalog-copy.js';
import { nowIso, type Store } from '../../store/db.js';
import type { ImportDb } from '../../store/import-runs.js';
import type { RowReader } from './rows.js';
import { type RunState, saveRun } from './runs.js';
import type { ParseResult } from './types.js';
import { tuneForImport, upsertWriter } from './writer.js';

/** Where one batch's parsed rows go, inside the batch's transaction. */
export interface BatchSink {
  /** A promise only when the row made the sink write: most rows are buffered, with no await. */
  add(result: Extract<ParseResult, { ok: true }>): Promise<void> | undefined;
  /** An edition a dump says is deleted or redirected. */
  remove?(key: string): Promise<void>;
  /** Writes what is buffered; `ended` on the file's last batch. */
  finish(ended: boolean): Promise<void>;
}

export interface Batching {
  batchSize: number;
  report: (run: RunState) => void;
  /** Default: entries upserted as they are (every single-file import). */
  sink?: (trx: ImportDb, store: BulkStore) => BatchSink;
}

function plainSink(trx: ImportDb, store: Store): BatchSink {
  const writer = upsertWriter(trx, store);
  return { add: (result) => writer.add(result.entry, result.links), finish: () => writer.flush() };
}

/** Reads the rows after the resume point (the reader starts there), committing entries and progress together every batch. */
export async function importRows(store: Store, reader: RowReader, start: RunState, batching: Batching) {
  const restore = tuneForImport(store);
  // PostgreSQL: one connection for the whole import, loading with COPY (see store/catalog-import).
  const session = await openBulkSession(store).catch(async (error: unknown) => {
    await reader.close();
    restore();
    throw error;
  });
  try {
    return await readAndCommit(session.store, reader, start, batching);
  } finally {
    // Also when a batch or the progress callback failed: stop the reader (and its worker thread).
    await reader.close();
    await session.close();
    restore();
  }
}

async function readAndCommit(store: BulkStore, reader: RowReader, start: RunState, batching: Batching) {
  const rows = reader.rows[Symbol.asyncIterator]();
  let run = start;
  let ended = false;
  // Malformed CSV records before the resume point were counted by the earlier run.
  let malformedSeen: number | null = start.rowsDone === 0 ? 0 : null;
  do {
    // Rows are read and written inside the transaction, a statement's worth at a time, so a batch
    // never holds all its entries: holding 20,000 of them cost more in garbage collection than SQL.
    run = await store.db.transaction().execute(async (trx) => {
      const sink = batching.sink?.(trx, store) ?? plainSink(trx, store);
      let read = 0;
      let imported = 0;
      const skipped: Record<string, number> = {};
      while (read < batching.batchSize) {
        // Rows at hand are taken without a promise each; only the end of a chunk waits for the next.
        let result = reader.take?.();
        if (result === undefined) {
          const next = await rows.next();
          if (next.done) {
            ended = true;
            break;
          }
          result = next.value();
        }
        malformedSeen ??= reader.malformed();
        read++;
        if (result.ok) {
          imported++;
          const written = sink.add(result);
          if (written) await written;
        } else {
          skipped[result.reason] = (skipped[result.reason] ?? 0) + 1;
          if (result.removes) await sink.remove?.(result.removes);
        }
      }
      await sink.finish(ended);
      const malformed = reader.malformed() - (malformedSeen ?? reader.malformed());
      if (malformed > 0) skipped.malformed_row = (skipped.malformed_row ?? 0) + malformed;
      const next: RunState = {
        ...run,
        rowsDone: run.rowsDone + read,
        bytesDone: ended ? Math.max(reader.bytesRead(), run.bytesDone) : reader.bytesRead(),
        imported: run.imported + imported,
        skipped: mergeCounts(run.skipped, skipped),
        finished: ended,
      };
      await saveRun(trx, next, nowIso());
      return next;
    });
    malformedSeen = reader.malformed();
    batching.report(run);
  } while (!ended);
  return run;
}

function mergeCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const merged = { ...a };
  for (const [key, n] of Object.entries(b)) merged[key] = (merged[key] ?? 0) + n;
  return merged;
}
