import { sql } from 'kysely';
import { readTogether, type Store } from '../db.js';
import type { BookRow, CatalogEntryRow } from '../schema.js';
import { directRows, heldConnection, limitText, placeholders } from './direct.js';
import { clickCounts } from './pins.js';

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

/** The leading works' families, and the click totals of the saved books a search found. */
export interface Families extends Retrieved {
  /** All-time outbound clicks by saved book id (book_clicks): readers' choices feed back into ranking. */
  clicks: Map<number, number>;
}

/**
 * Every edition sharing these match keys (the ranking needs a work's whole family to choose its
 * edition), and the click totals of its saved books and of `knownBookIds`, the books found already.
 * On PostgreSQL one statement, each part as a JSON array: a statement is a round trip, a write that
 * wakes the backend, and a result the driver builds field by field, and these three reads were three
 * of a search's five (bench/runs/2026-12-03-run-31.md).
 */
export async function familiesWithClicks(
  store: Store,
  keys: string[],
  knownBookIds: number[],
  limit = 200,
): Promise<Families> {
  if (keys.length === 0 && knownBookIds.length === 0) return { books: [], entries: [], clicks: new Map() };
  if (store.dialect === 'sqlite') {
    const sqlite = heldConnection(store);
    // Run directly (see direct.ts), the limit written in (see `limitText`), in a search's read
    // transaction or one of their own.
    if (!sqlite) return readTogether(store, (held) => familiesWithClicks(held, keys, knownBookIds, limit));
    const read = <Row>(columns: string, table: string): Row[] =>
      keys.length === 0
        ? []
        : directRows<Row>(
            sqlite,
            `select ${columns} from ${table} where match_key in (${placeholders(keys.length)}) limit ${limitText(limit)}`,
            keys,
          );
    const entries = read<CatalogEntryRow>(ENTRY_COLUMN_LIST, 'catalog_entries c');
    const books = read<BookRow>(BOOK_COLUMN_LIST, 'books b');
    const clicks = await clickCounts(store, [...knownBookIds, ...books.map((row) => Number(row.id))]);
    return { books, entries, clicks };
  }
  const result = await sql<{ entries: CatalogEntryRow[]; books: BookRow[]; clicks: [number, number][] }>`
    with e as (select ${ENTRY_COLUMNS} from catalog_entries c where c.match_key = any(${keys}::text[]) limit ${limit}),
    b as (select ${BOOK_COLUMNS} from books b where b.match_key = any(${keys}::text[]) limit ${limit}),
    ids as (select unnest(${knownBookIds}::bigint[]) as id union select id from b)
    select (select coalesce(json_agg(e), '[]'::json) from e) as entries,
      (select coalesce(json_agg(b), '[]'::json) from b) as books,
      (select coalesce(json_agg(json_build_array(k.book_id, k.clicks)), '[]'::json)
        from book_clicks k join ids on ids.id = k.book_id) as clicks`.execute(store.db);
  const row = result.rows[0];
  return {
    entries: row?.entries ?? [],
    books: row?.books ?? [],
    clicks: new Map((row?.clicks ?? []).map(([id, clicks]) => [Number(id), Number(clicks)])),
  };
}
