import { type Kysely, sql } from 'kysely';
import { nowIso } from '../db.js';
import type { BookRow, Database } from '../schema.js';

/** Saved books an operator pinned to this folded query. */
export async function pinnedBooks(db: Kysely<Database>, queryKey: string): Promise<BookRow[]> {
  // Read by every search, so written as SQL rather than built (see listedCounts).
  const pinned = await sql<BookRow>`select books.* from search_pins p join books on books.id = p.book_id
    where p.query_key = ${queryKey} order by p.id`.execute(db);
  return pinned.rows;
}

export async function addPin(
  db: Kysely<Database>,
  queryKey: string,
  bookId: number,
  notes = '',
): Promise<void> {
  await db
    .insertInto('search_pins')
    .values({ query_key: queryKey, book_id: bookId, notes, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['query_key', 'book_id']).doNothing())
    .execute();
}

/** Outbound clicks per saved book: readers' choices feed back into ranking. */
export async function clickCounts(db: Kysely<Database>, bookIds: number[]): Promise<Map<number, number>> {
  if (bookIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('clicks')
    .select(['book_id', sql<number>`count(*)`.as('n')])
    .where('book_id', 'in', bookIds)
    .groupBy('book_id')
    .execute();
  return new Map(rows.map((row) => [Number(row.book_id), Number(row.n)]));
}
