import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Books are created one at a time, on a reader's first
// visit, and every search reads their full-text index. A GIN index's "fast update" pending list, which
// suits bulk loads, held each new book's words in an unsorted list that every search scanned, until a
// vacuum merged it: where autovacuum is off or late, 10,000 books left 205 pending pages, and the
// planner, counting them, read the whole books table instead (4.7 ms a search against 0.26 once merged;
// search-dev medians 15-23 ms against 12 at 10M, bench/README). Written directly, a book's insert costs
// 0.06-0.09 ms more. The trigram index keeps its pending list: only searches before any import read it.
// SQLite's full-text tables have no pending list.
export async function booksFtsDirectMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  await sql`alter index books_fts set (fastupdate = off)`.execute(db);
  // Turning it off keeps what is pending: merged here once.
  await sql`select gin_clean_pending_list('books_fts'::regclass)`.execute(db);
}
