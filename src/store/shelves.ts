import { type Expression, type SqlBool, sql } from 'kysely';
import { parseJsonArray } from '../domain/json.js';
import { type Book, bookRowToBook } from './books.js';
import type { Store } from './db.js';
import type { Db } from './schema.js';

/**
 * Candidates for series and author pages. The pages ask by slug ("the-hunger-games"): these queries
 * fetch every row whose text holds all of the slug's words, and the service keeps the exact matches.
 */

/** A catalog entry as a series or author page lists it (not yet a book, perhaps). */
export interface ShelfEntry {
  title: string;
  authors: string[];
  isbn13: string | null;
  coverUrl: string | null;
  popularity: number;
  series: string | null;
}

export interface SeriesBook {
  book: Book;
  series: string;
}

const CANDIDATE_LIMIT = 1000;

/** LIKE patterns for folded words; anything but letters and digits is dropped, so no wildcard slips in. */
function patterns(words: readonly string[]): string[] {
  return words
    .map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean)
    .map((word) => `%${word}%`);
}

function seriesText(store: Store): Expression<string | null> {
  return store.dialect === 'sqlite'
    ? sql<string | null>`json_extract(identifiers, '$.series')`
    : sql<string | null>`(identifiers::jsonb) ->> 'series'`;
}

function allLike(text: Expression<string | null>, words: readonly string[]): Expression<SqlBool> {
  const likes = patterns(words).map((pattern) => sql<SqlBool>`lower(${text}) like ${pattern}`);
  return likes.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`${sql.join(likes, sql` and `)}`;
}

/** The catalog columns a shelf shows. */
const SHELF_ENTRY_COLUMNS = ['title', 'authors', 'isbn13', 'cover_url', 'popularity'] as const;

interface ShelfEntryRow {
  title: string;
  authors: string;
  isbn13: string | null;
  cover_url: string | null;
  popularity: number | string;
  series?: string | null;
}

/** The one mapping of a catalog row to a shelf entry (`series` only where the query selected it). */
function shelfEntryOf(row: ShelfEntryRow): ShelfEntry {
  return {
    title: row.title,
    authors: parseJsonArray(row.authors),
    isbn13: row.isbn13,
    coverUrl: row.cover_url,
    popularity: Number(row.popularity),
    series: row.series ?? null,
  };
}

/** Catalog entries whose series note holds every word. */
export async function catalogEntriesInSeries(store: Store, words: readonly string[]): Promise<ShelfEntry[]> {
  const series = seriesText(store);
  const rows = await store.db
    .selectFrom('catalog_entries')
    .select(SHELF_ENTRY_COLUMNS)
    .select(sql<string | null>`${series}`.as('series'))
    .where(allLike(series, words))
    .orderBy('popularity', 'desc')
    .limit(CANDIDATE_LIMIT)
    .execute();
  return rows.map(shelfEntryOf);
}

/** Books whose stored series identifier holds every word. */
export async function booksInSeries(db: Db, words: readonly string[]): Promise<SeriesBook[]> {
  const rows = await db
    .selectFrom('book_identifiers as bi')
    .innerJoin('books', 'books.id', 'bi.book_id')
    .selectAll('books')
    .select('bi.value as series_note')
    .where('bi.scheme', '=', 'series')
    .where(allLike(sql.ref('bi.value'), words))
    .limit(CANDIDATE_LIMIT)
    .execute();
  return rows.map(({ series_note, ...row }) => ({ book: bookRowToBook(row), series: series_note }));
}

/** Books by ISBN-13, for linking catalog volumes that already have a page. */
export async function booksByIsbn13(db: Db, isbns: readonly string[]): Promise<Book[]> {
  if (isbns.length === 0) return [];
  const rows = await db
    .selectFrom('books')
    .selectAll()
    .where('isbn13', 'in', [...isbns])
    .execute();
  return rows.map(bookRowToBook);
}

/** Books whose author list holds every word. */
export async function booksByAuthorWords(db: Db, words: readonly string[]): Promise<Book[]> {
  const rows = await db
    .selectFrom('books')
    .selectAll()
    .where(allLike(sql.ref('authors'), words))
    .limit(CANDIDATE_LIMIT)
    .execute();
  return rows.map(bookRowToBook);
}

/** Catalog entries whose author list holds every word, most popular first. */
export async function catalogEntriesByAuthorWords(
  store: Store,
  words: readonly string[],
): Promise<ShelfEntry[]> {
  const rows = await store.db
    .selectFrom('catalog_entries')
    .select(SHELF_ENTRY_COLUMNS)
    .where(allLike(sql.ref('authors'), words))
    .orderBy('popularity', 'desc')
    .limit(CANDIDATE_LIMIT)
    .execute();
  return rows.map(shelfEntryOf);
}

/** All-time reader clicks per book (bots are never recorded). */
export async function clickCounts(db: Db, bookIds: readonly number[]): Promise<Map<number, number>> {
  if (bookIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('clicks')
    .select(['book_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('book_id', 'in', [...bookIds])
    .groupBy('book_id')
    .execute();
  return new Map(rows.map((row) => [row.book_id, Number(row.n)]));
}

/** Author lists and series notes of the books that have pages, for the sitemap (at most `limit` each). */
export async function shelfNamesOfBooks(
  db: Db,
  limit: number,
): Promise<{ authors: string[][]; seriesNotes: string[] }> {
  const [authors, series] = await Promise.all([
    db.selectFrom('books').select('authors').orderBy('id').limit(limit).execute(),
    db
      .selectFrom('book_identifiers')
      .select('value')
      .where('scheme', '=', 'series')
      .orderBy('book_id')
      .limit(limit)
      .execute(),
  ]);
  return {
    authors: authors.map((row) => parseJsonArray(row.authors)),
    seriesNotes: series.map((row) => row.value),
  };
}

/** The catalog's most popular editions that have an ISBN (the home page of a fresh import). */
export async function popularCatalogEntries(db: Db, limit: number): Promise<ShelfEntry[]> {
  const rows = await db
    .selectFrom('catalog_entries')
    .select(SHELF_ENTRY_COLUMNS)
    .where('isbn13', 'is not', null)
    .where('popularity', '>', 0)
    .orderBy('popularity', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(shelfEntryOf);
}
