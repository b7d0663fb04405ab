import { sql } from 'kysely';
import { nowIso } from './db.js';
import type { Db } from './schema.js';

/** Throws when the database does not answer a trivial query (readiness checks). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/** The setting that the write check rewrites: one small row, whatever the number of checks. */
const WRITE_CHECK_KEY = 'readiness_write_check';

/**
 * Throws when the database refuses a write (a full disk, a read-only file or standby): one row of
 * `settings` rewritten and committed, so that the write reaches the log as every real write must.
 */
export async function checkDatabaseWrites(db: Db): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key: WRITE_CHECK_KEY, value: nowIso() })
    .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ value: eb.ref('excluded.value') })))
    .execute();
}
