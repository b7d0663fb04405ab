import { sql } from 'kysely';
import type { Store } from '../db.js';
import type { BookRow, CatalogEntryRow } from '../schema.js';
import { directRows, heldConnection, limitText, placeholders } from './direct.js';

/** What retrieval hands to ranking: saved books and catalog entries, duplicates left for the caller. */
export interface Retrieved {
  books: BookRow[];
  entries: CatalogEntryRow[];
}

export const BOOK_COLUMN_LIST =
  'b.id, b.slug, b.work_id, b.isbn13, b.isbn10, b.title, b.subtitle, b.authors, b.cover_url, b.published_date, b.publisher, b.format, b.language, b.pages, b.description, b.match_key, b.popularity, b.created_at, b.updated_at';
export const ENTRY_COLUMN_LIST =
  'c.id, c.entry_key, c.source, c.isbn13, c.isbn10, c.title, c.subtitle, c.authors, c.published_date, c.publisher, c.cover_url, c.language, c.format, c.pages, c.description, c.identifiers, c.match_key, c.popularity, c.updated_at';
export const BOOK_COLUMNS = sql.raw(BOOK_COLUMN_LIST);
export const ENTRY_COLUMNS = sql.raw(ENTRY_COLUMN_LIST);

/** Rows by id, once each: the two orders of one match overlap. */
export function distinct<T extends { id: number }>(rows: T[]): T[] {
  const seen = new Set<number>();
  return rows.filter((row) => !seen.has(Number(row.id)) && seen.add(Number(row.id)));
}

// Text rank favours short titles ("Harry Potter Boxset"), so the most popular matches join them:
// a famous book whose title merely starts with the query must still reach the ranking.
export const POPULAR_SHARE = 0.5;
/**
 * A common word matches hundreds of thousands of entries in a large catalog: text rank orders the
 * most popular this many of them (every match, below that), so no query reads them all.
 */
export const RANKED_POOL = 2000;

export const merge = (a: Retrieved, b: Retrieved): Retrieved => ({
  books: [...a.books, ...b.books],
  entries: [...a.entries, ...b.entries],
});

/** Every edition sharing these match keys: the ranking needs a work's whole family to choose its edition. */
export async function editionsByMatchKeys(store: Store, keys: string[], limit = 200): Promise<Retrieved> {
  if (keys.length === 0) return { books: [], entries: [] };
  const sqlite = heldConnection(store);
  if (sqlite) {
    // The same statements as below, run directly (see direct.ts), the limit written in (see `limitText`).
    const where = `match_key in (${placeholders(keys.length)}) limit ${limitText(limit)}`;
    return {
      entries: directRows<CatalogEntryRow>(
        sqlite,
        `select ${ENTRY_COLUMN_LIST} from catalog_entries c where c.${where}`,
        keys,
      ),
      books: directRows<BookRow>(sqlite, `select ${BOOK_COLUMN_LIST} from books b where b.${where}`, keys),
    };
  }
  const { db } = store;
  const [entries, books] = await Promise.all([
    sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from catalog_entries c
      where c.match_key in (${sql.join(keys)}) limit ${limit}`.execute(db),
    sql<BookRow>`select ${BOOK_COLUMNS} from books b where b.match_key in (${sql.join(keys)}) limit ${limit}`.execute(
      db,
    ),
  ]);
  return { books: books.rows, entries: entries.rows };
}
