import { sql } from 'kysely';
import { nowIso, type Store } from '../db.js';
import type { BookRow, Db } from '../schema.js';
import '../click-writes.js';
import { directRows, heldConnection, placeholders } from './direct.js';

/** Saved books an operator pinned to this folded query. */
export async function pinnedBooks(store: Store, queryKey: string): Promise<BookRow[]> {
  const sqlite = heldConnection(store);
  // Read by every search: directly inside a search's read transaction (see direct.ts), else as SQL
  // rather than built (see listedCounts).
  if (sqlite) {
    return directRows<BookRow>(
      sqlite,
      'select books.* from search_pins p join books on books.id = p.book_id where p.query_key = ? order by p.id',
      [queryKey],
    );
  }
  const pinned = await sql<BookRow>`select books.* from search_pins p join books on books.id = p.book_id
    where p.query_key = ${queryKey} order by p.id`.execute(store.db);
  return pinned.rows;
}

/** The folded queries that pin any book, up to `limit` of them (more: the caller cannot keep them all). */
export async function pinnedQueryKeys(db: Db, limit: number): Promise<string[]> {
  const rows = await sql<{ query_key: string }>`select distinct query_key from search_pins
    order by query_key limit ${limit}`.execute(db);
  return rows.rows.map((row) => row.query_key);
}

export async function addPin(db: Db, queryKey: string, bookId: number, notes = ''): Promise<void> {
  await db
    .insertInto('search_pins')
    .values({ query_key: queryKey, book_id: bookId, notes, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['query_key', 'book_id']).doNothing())
    .execute();
}

/**
 * Outbound clicks per saved book, of all time: readers' choices feed back into ranking. Read from the
 * totals the click writer keeps (`book_clicks`), one row a book, not counted from `clicks`, which took
 * longer the more a book was clicked.
 */
export async function clickCounts(store: Store, bookIds: number[]): Promise<Map<number, number>> {
  if (bookIds.length === 0) return new Map();
  const sqlite = heldConnection(store);
  const rows = sqlite
    ? // The statement Kysely builds below, run directly (see direct.ts).
      directRows<{ book_id: number; clicks: number }>(
        sqlite,
        `select "book_id", "clicks" from "book_clicks" where "book_id" in (${placeholders(bookIds.length)})`,
        bookIds,
      )
    : await store.db
        .selectFrom('book_clicks')
        .select(['book_id', 'clicks'])
        .where('book_id', 'in', bookIds)
        .execute();
  return new Map(rows.map((row) => [Number(row.book_id), Number(row.clicks)]));
}
