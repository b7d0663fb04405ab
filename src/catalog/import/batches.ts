import { nowIso, type Store } from '../../store/db.js';
import type { NewCatalogEntryRow } from '../../store/schema.js';
import type { RowReader } from './rows.js';
import { type RunState, saveRun } from './runs.js';
import { upsertEntries } from './writer.js';

export interface Batching {
  batchSize: number;
  report: (run: RunState) => void;
}

/** Reads the rows after the resume point, committing entries and progress together every batch. */
export async function importRows(store: Store, reader: RowReader, start: RunState, batching: Batching) {
  let run = start;
  let entries: NewCatalogEntryRow[] = [];
  let rows = 0;
  let skipped: Record<string, number> = {};
  // Malformed CSV records before the resume point were counted by the earlier run.
  let malformedSeen: number | null = null;
  const commit = async (finished: boolean) => {
    const malformed = reader.malformed() - (malformedSeen ?? reader.malformed());
    if (malformed > 0) skipped.malformed_row = (skipped.malformed_row ?? 0) + malformed;
    malformedSeen = reader.malformed();
    const next: RunState = {
      ...run,
      rowsDone: run.rowsDone + rows,
      bytesDone: finished ? Math.max(reader.bytesRead(), run.bytesDone) : reader.bytesRead(),
      imported: run.imported + entries.length,
      skipped: mergeCounts(run.skipped, skipped),
      finished,
    };
    await store.db.transaction().execute(async (trx) => {
      await upsertEntries(trx, store.dialect, entries);
      await saveRun(trx, next, nowIso());
    });
    run = next;
    entries = [];
    rows = 0;
    skipped = {};
    batching.report(run);
  };
  let index = 0;
  for await (const parse of reader.rows) {
    if (index++ < start.rowsDone) continue;
    malformedSeen ??= reader.malformed();
    const result = parse();
    if (result.ok) entries.push(result.entry);
    else skipped[result.reason] = (skipped[result.reason] ?? 0) + 1;
    if (++rows >= batching.batchSize) await commit(false);
  }
  await commit(true);
  return run;
}

function mergeCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  const merged = { ...a };
  for (const [key, n] of Object.entries(b)) merged[key] = (merged[key] ?? 0) + n;
  return merged;
}
