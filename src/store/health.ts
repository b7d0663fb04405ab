import { sql } from 'kysely';
import type { Db } from './schema.js';

/** Throws when the database does not answer a trivial query (readiness checks). */
export async function pingDatabase(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
