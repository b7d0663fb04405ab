import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import type { Db } from '../../store/schema.js';
import type { ImportFormat } from './types.js';

/** Progress of one file as stored in `import_runs`; counts cover every run of the file so far. */
export interface RunState {
  fileKey: string;
  format: ImportFormat;
  rowsDone: number;
  bytesDone: number;
  imported: number;
  skipped: Record<string, number>;
  finished: boolean;
  updatedAt: string | null;
}

/** Same path, size and modification time: the same file, so its progress still applies. */
export function fileKey(absolutePath: string, stats: Pick<Stats, 'size' | 'mtimeMs'>): string {
  return createHash('sha256')
    .update(`${absolutePath}\0${stats.size}\0${Math.trunc(stats.mtimeMs)}`)
    .digest('hex');
}

function parseSkipped(text: string): Record<string, number> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return {};
    return Object.fromEntries(Object.entries(value).filter(([, n]) => typeof n === 'number'));
  } catch {
    return {};
  }
}

export function freshRun(key: string, format: ImportFormat): RunState {
  return {
    fileKey: key,
    format,
    rowsDone: 0,
    bytesDone: 0,
    imported: 0,
    skipped: {},
    finished: false,
    updatedAt: null,
  };
}

export async function loadRun(db: Db, key: string): Promise<RunState | null> {
  const row = await db.selectFrom('import_runs').selectAll().where('file_key', '=', key).executeTakeFirst();
  if (!row) return null;
  return {
    fileKey: key,
    format: row.format as ImportFormat,
    rowsDone: Number(row.rows_done),
    bytesDone: Number(row.bytes_done),
    imported: Number(row.imported),
    skipped: parseSkipped(row.skipped),
    finished: row.finished === 1,
    updatedAt: row.updated_at,
  };
}

/** Writes the run's counters; called inside the batch's transaction so both commit or neither does. */
export async function saveRun(db: Db, run: RunState, now: string): Promise<void> {
  const values = {
    format: run.format,
    rows_done: run.rowsDone,
    bytes_done: run.bytesDone,
    imported: run.imported,
    skipped: JSON.stringify(run.skipped),
    finished: run.finished ? 1 : 0,
    updated_at: now,
  };
  await db
    .insertInto('import_runs')
    .values({ file_key: run.fileKey, ...values })
    .onConflict((conflict) => conflict.column('file_key').doUpdateSet(values))
    .execute();
}
