import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Readers' visits of each book's page per day (bots and
// link previews are not counted), so the admin area can show a book's click-through.
export async function bookVisitsMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ref = dialect === 'sqlite' ? 'integer' : 'bigint';
  await db.schema
    .createTable('book_visits')
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('book_id', ref, (col) => col.notNull())
    .addColumn('visits', ref, (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('book_visits_pk', ['day', 'book_id'])
    .execute();
  await db.schema.createIndex('book_visits_book').on('book_visits').columns(['book_id', 'day']).execute();
}
