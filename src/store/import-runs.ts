import type { Db, ImportRunTable } from './schema.js';

/** The database handle the importers pass around (a transaction or the store's `db`). */
export type ImportDb = Db;

export type ImportRunValues = Omit<ImportRunTable, 'id' | 'file_key'>;

/** The stored progress of one file, by its key (path, size and modification time). */
export function findImportRun(db: ImportDb, fileKey: string) {
  return db.selectFrom('import_runs').selectAll().where('file_key', '=', fileKey).executeTakeFirst();
}

/** Writes a file's progress; importers call it inside the batch's transaction. */
export async function saveImportRun(db: ImportDb, fileKey: string, values: ImportRunValues): Promise<void> {
  await db
    .insertInto('import_runs')
    .values({ file_key: fileKey, ...values })
    .onConflict((conflict) => conflict.column('file_key').doUpdateSet(values))
    .execute();
}
