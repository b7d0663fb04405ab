import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Each book's outbound clicks of all time, one row a
// book, which search ranking reads: counting them from `clicks` on every search took longer as a
// book was clicked more (40 ms a search on a book of 100,000 clicks). The click writer adds to it in
// the transaction that stores the clicks; this counts what is stored already.
export async function bookClicksMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ref = dialect === 'sqlite' ? 'integer' : 'bigint';
  await db.schema
    .createTable('book_clicks')
    .addColumn('book_id', ref, (col) => col.primaryKey())
    .addColumn('clicks', ref, (col) => col.notNull())
    .execute();
  await sql`insert into book_clicks (book_id, clicks)
    select book_id, count(*) from clicks group by book_id`.execute(db);
}
