import type SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import type { Store } from '../db.js';
import type { BookRow, CatalogEntryRow, Db } from '../schema.js';
import { directArrays, directRows, heldConnection, limitText, placeholders } from './direct.js';
import {
  BOOK_COLUMN_LIST,
  BOOK_COLUMNS,
  ENTRY_COLUMN_LIST,
  ENTRY_COLUMNS,
  POPULAR_SHARE,
  RANKED_POOL,
  type Retrieved,
} from './rows.js';
import { type TermRange, type TermRow, wordRange } from './vocabulary.js';

/**
 * SQLite's retrieval: FTS5 over the saved books (books_fts) and the catalog (catalog_fts), and the
 * index's own word lists (the fts5vocab tables) for spelling corrections.
 */

/** The entry id in a catalog full-text row key (migration 0016: popularity first, id in the low 32 bits). */
const ENTRY_ID = sql.raw('(f.rowid & 4294967295)');

export async function sqliteMatch(store: Store, match: string, limit: number): Promise<Retrieved> {
  const sqlite = heldConnection(store);
  if (sqlite) return directMatch(sqlite, match, limit);
  const { db } = store;
  const [ids, books] = await Promise.all([
    sqliteMatchingIds(db, match, limit),
    // Ranked by id and score alone, then the best `limit` books read: sorting whole rows read every
    // matching book's columns, the matches past the limit included.
    sql<BookRow>`select ${BOOK_COLUMNS} from (select rowid as id, bm25(books_fts, 4.0, 1.0) as score
        from books_fts where books_fts match ${match} order by score limit ${limit}) m
      join books b on b.id = m.id order by m.score`.execute(db),
  ]);
  return { books: books.rows, entries: await entriesById(db, ids) };
}

/**
 * The catalog entries a full-text query retrieves: every match when there are `limit` or fewer (most
 * popular first), else the best `limit` by text rank among the most popular RANKED_POOL, then the most
 * popular share. Full-text rows are read in key order, most popular first, and the reading stops at
 * its limit.
 */
async function sqliteMatchingIds(db: Db, match: string, limit: number): Promise<number[]> {
  const first = await sql<{ id: number }>`select ${ENTRY_ID} as id from catalog_fts f
    where catalog_fts match ${match} order by f.rowid limit ${limit + 1}`.execute(db);
  if (first.rows.length <= limit) return first.rows.map((row) => Number(row.id));
  const keyed = await sql<{ id: number; score: number }>`select ${ENTRY_ID} as id,
      bm25(catalog_fts, 4.0, 1.0, 2.0) as score from catalog_fts f
    where catalog_fts match ${match} order by f.rowid limit ${RANKED_POOL}`.execute(db);
  return rankedIds(keyed.rows, limit);
}

/** The best `limit` by text rank, then the most popular share, each once (`keyed`: most popular first). */
function rankedIds(keyed: readonly { id: number; score: number }[], limit: number): number[] {
  const byPopularity = keyed.slice(0, Math.ceil(limit * POPULAR_SHARE));
  // A stable sort: equal ranks stay most popular first.
  const byText = [...keyed].sort((a, b) => a.score - b.score).slice(0, limit);
  return [...new Set([...byText, ...byPopularity].map((row) => Number(row.id)))];
}

/** Catalog entries in the order of `ids`. */
async function entriesById(db: Db, ids: readonly number[]): Promise<CatalogEntryRow[]> {
  if (ids.length === 0) return [];
  const rows = await sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from catalog_entries c
    where c.id in (${sql.join(ids)})`.execute(db);
  return inOrder(rows.rows, ids);
}

function inOrder(rows: readonly CatalogEntryRow[], ids: readonly number[]): CatalogEntryRow[] {
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

const booksMatched = (limit: number) => `select ${BOOK_COLUMN_LIST} from (select rowid as id,
  bm25(books_fts, 4.0, 1.0) as score from books_fts where books_fts match ? order by score limit ${limitText(limit)}) m
  join books b on b.id = m.id order by m.score`;
const firstMatches = (limit: number) => `select (f.rowid & 4294967295) as id from catalog_fts f
  where catalog_fts match ? order by f.rowid limit ${limitText(limit)}`;
const KEYED = `select (f.rowid & 4294967295) as id, bm25(catalog_fts, 4.0, 1.0, 2.0) as score from catalog_fts f
  where catalog_fts match ? order by f.rowid limit ${limitText(RANKED_POOL)}`;

/**
 * `sqliteMatch` inside a search's read transaction, the same statements run directly (see direct.ts),
 * their limits written in (see `limitText`). (The entries fetched in the full-text query's own
 * statement, by a join, cost a fifth more than two statements.)
 */
function directMatch(sqlite: SQLite.Database, match: string, limit: number): Retrieved {
  const books = directRows<BookRow>(sqlite, booksMatched(limit), [match]);
  const first = directArrays(sqlite, firstMatches(limit + 1), [match]).rows;
  const ids =
    first.length <= limit
      ? first.map((values) => Number(values[0]))
      : rankedIds(directRows<{ id: number; score: number }>(sqlite, KEYED, [match]), limit);
  if (ids.length === 0) return { books, entries: [] };
  const rows = directRows<CatalogEntryRow>(
    sqlite,
    `select ${ENTRY_COLUMN_LIST} from catalog_entries c where c.id in (${placeholders(ids.length)})`,
    ids,
  );
  return { books, entries: inOrder(rows, ids) };
}

/** Saved books' words in a range. */
export const savedTermRange: TermRange = (db, lower, upper, lengths) =>
  wordRange(db, ['books_fts_vocab'], lower, upper, lengths);

/** The same over the catalog's full-text index and the saved books' (before any import listed the words). */
export const indexTermRange: TermRange = (db, lower, upper, lengths) =>
  wordRange(db, ['catalog_fts_vocab', 'books_fts_vocab'], lower, upper, lengths);

/**
 * How many saved books hold each word, and how many catalog entries each `unseen` word (one the last
 * import did not list), counted in the index itself.
 */
export async function indexTermCounts(
  db: Db,
  words: readonly string[],
  unseen: readonly string[],
): Promise<TermRow[]> {
  const rows = await sql<TermRow>`
        select term, doc from books_fts_vocab where term in (${sql.join(words)})
        ${unseen.length > 0 ? sql`union all select term, doc from catalog_fts_vocab where term in (${sql.join(unseen)})` : sql``}`.execute(
    db,
  );
  return rows.rows;
}

/**
 * The word reads of spelling corrections inside a search's read transaction, the same statements
 * as `wordRange`, `listedCounts` and `indexTermCounts` run directly (see direct.ts).
 */
export const directTerms = {
  range(
    sqlite: SQLite.Database,
    tables: readonly ('books_fts_vocab' | 'catalog_fts_vocab')[],
    lower: string,
    upper: string,
    [shortest, longest]: readonly [number, number],
  ): TermRow[] {
    const text = tables
      .map(
        (table) =>
          `select term, doc from "${table}" where term >= ? and term < ? and length(term) between ? and ?`,
      )
      .join(' union all ');
    return directRows<TermRow>(
      sqlite,
      text,
      tables.flatMap(() => [lower, upper, shortest, longest]),
    );
  },
  listedCounts(sqlite: SQLite.Database, words: readonly string[]): TermRow[] {
    if (words.length === 0) return [];
    return directRows<TermRow>(
      sqlite,
      `select term, doc from catalog_terms where term in (${placeholders(words.length)})`,
      words,
    );
  },
  indexCounts(sqlite: SQLite.Database, words: readonly string[], unseen: readonly string[]): TermRow[] {
    const saved = `select term, doc from books_fts_vocab where term in (${placeholders(words.length)})`;
    return directRows<TermRow>(
      sqlite,
      unseen.length > 0
        ? `${saved} union all select term, doc from catalog_fts_vocab where term in (${placeholders(unseen.length)})`
        : saved,
      [...words, ...unseen],
    );
  },
};
