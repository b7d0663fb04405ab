import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Lists get a public id, the one their addresses carry:
// existing lists keep their numeric id (as text), so every link, QR code and embed already out there
// keeps working; new lists get a random one (store/lists.ts), so the addresses can no longer be walked.
export async function listPublicIdsMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema.alterTable('lists').addColumn('public_id', 'text').execute();
  await sql`update lists set public_id = cast(id as text)`.execute(db);
  // SQLite cannot add NOT NULL to an existing column; the store always writes one.
  if (dialect === 'postgres') {
    await db.schema
      .alterTable('lists')
      .alterColumn('public_id', (col) => col.setNotNull())
      .execute();
  }
  await db.schema.createIndex('lists_public_id').unique().on('lists').column('public_id').execute();
}
