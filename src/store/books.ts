import { type Expression, sql } from 'kysely';
import type { BookRecord } from '../domain/book-record.js';
import { parseJsonArray } from '../domain/json.js';
import { nowIso, type Store } from './db.js';
import { isUniqueViolation } from './errors.js';
import type { BookRow, Db } from './schema.js';
import { createWork, type NewWork } from './works.js';

/** A saved book: an edition with a permanent slug. */
export interface Book {
  id: number;
  slug: string;
  workId: number | null;
  isbn13: string | null;
  isbn10: string | null;
  title: string;
  subtitle: string | null;
  authors: string[];
  coverUrl: string | null;
  publishedDate: string | null;
  publisher: string | null;
  format: string | null;
  language: string | null;
  pages: number | null;
  description: string | null;
  matchKey: string | null;
  createdAt: string;
  updatedAt: string;
}

export function bookRowToBook(row: BookRow): Book {
  return {
    id: Number(row.id),
    slug: row.slug,
    workId: row.work_id === null ? null : Number(row.work_id),
    isbn13: row.isbn13,
    isbn10: row.isbn10,
    title: row.title,
    subtitle: row.subtitle,
    authors: parseJsonArray(row.authors),
    coverUrl: row.cover_url,
    publishedDate: row.published_date,
    publisher: row.publisher,
    format: row.format,
    language: row.language,
    pages: row.pages,
    description: row.description,
    matchKey: row.match_key,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findBookBySlug(db: Db, slug: string): Promise<Book | null> {
  const row = await db.selectFrom('books').selectAll().where('slug', '=', slug).executeTakeFirst();
  return row ? bookRowToBook(row) : null;
}

export async function findBookById(db: Db, id: number): Promise<Book | null> {
  const row = await db.selectFrom('books').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? bookRowToBook(row) : null;
}

export async function findBookByIsbn13(db: Db, isbn13: string): Promise<Book | null> {
  const row = await db.selectFrom('books').selectAll().where('isbn13', '=', isbn13).executeTakeFirst();
  return row ? bookRowToBook(row) : null;
}

export async function findBookByIdentifier(db: Db, scheme: string, value: string): Promise<Book | null> {
  const row = await db
    .selectFrom('book_identifiers')
    .innerJoin('books', 'books.id', 'book_identifiers.book_id')
    .selectAll('books')
    .where('book_identifiers.scheme', '=', scheme)
    .where('book_identifiers.value', '=', value)
    .executeTakeFirst();
  return row ? bookRowToBook(row) : null;
}

/** The saved book holding any of `pairs` (scheme, value): one probe of the unique index per pair. */
export async function findBookByAnyIdentifier(
  db: Db,
  pairs: ReadonlyArray<readonly [scheme: string, value: string]>,
): Promise<Book | null> {
  if (pairs.length === 0) return null;
  const row = await db
    .selectFrom('book_identifiers')
    .innerJoin('books', 'books.id', 'book_identifiers.book_id')
    .selectAll('books')
    .where((eb) =>
      eb.or(
        pairs.map(([scheme, value]) =>
          eb.and([eb('book_identifiers.scheme', '=', scheme), eb('book_identifiers.value', '=', value)]),
        ),
      ),
    )
    .orderBy('books.id')
    .executeTakeFirst();
  return row ? bookRowToBook(row) : null;
}

export async function bookIdentifiers(db: Db, bookId: number): Promise<Record<string, string>> {
  const rows = await db
    .selectFrom('book_identifiers')
    .select(['scheme', 'value'])
    .where('book_id', '=', bookId)
    .orderBy('scheme')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.scheme, row.value]));
}

/** Other editions and formats of the book's work, newest first, the book itself included. */
export async function editionsOfWork(db: Db, workId: number): Promise<Book[]> {
  const rows = await db
    .selectFrom('books')
    .selectAll()
    .where('work_id', '=', workId)
    .orderBy('published_date', 'desc')
    .orderBy('id')
    .limit(50)
    .execute();
  return rows.map(bookRowToBook);
}

/** Which of these slugs are taken (equality lookups in the slug index, one query). */
export async function takenSlugs(db: Db, slugs: readonly string[]): Promise<Set<string>> {
  if (slugs.length === 0) return new Set();
  const rows = await slugsTaken(db, slugs).execute();
  return new Set(rows.map((row) => row.slug));
}

/** The books holding any of these slugs (at least one). */
export const slugsTaken = (db: Db, slugs: readonly string[]) =>
  db.selectFrom('books').select('slug').where('slug', 'in', slugs);

export interface NewBook {
  slug: string;
  /** An existing work's id, or the work to create with the book (the same transaction). */
  work: number | NewWork;
  record: BookRecord;
  matchKey: string | null;
}

export type InsertOutcome = { kind: 'created'; book: Book } | { kind: 'slug_taken' } | { kind: 'isbn_taken' };

/**
 * Inserts a book, its identifiers and (given a new one) its work atomically, and makes the book its
 * work's canonical edition when the work has none yet: the first edition created leads. Races are
 * expected (several first visits at once, several instances): a lost race on the ISBN or the slug is
 * reported, not thrown, so the caller can load the winner or pick another slug.
 */
export async function insertBook(store: Store, input: NewBook): Promise<InsertOutcome> {
  const now = nowIso();
  const { work } = input;
  try {
    const row =
      store.dialect === 'postgres'
        ? // One statement is atomic: no transaction, and one round trip.
          await insertBookPostgres(store.db, input, now)
        : await store.db.transaction().execute(async (trx) => {
            const workId = typeof work === 'number' ? work : await createWork(trx, work, now);
            return insertBookSteps(trx, input, workId, now);
          });
    return { kind: 'created', book: bookRowToBook(row) };
  } catch (error) {
    if (isUniqueViolation(error, 'isbn13')) return { kind: 'isbn_taken' };
    if (isUniqueViolation(error, 'slug')) return { kind: 'slug_taken' };
    throw error;
  }
}

function bookValues(input: NewBook, workId: number | Expression<number>, now: string) {
  const { record } = input;
  return {
    slug: input.slug,
    work_id: workId,
    isbn13: record.isbn13,
    isbn10: record.isbn10,
    title: record.title,
    subtitle: record.subtitle,
    authors: JSON.stringify(record.authors),
    cover_url: record.coverUrl,
    published_date: record.publishedDate,
    publisher: record.publisher,
    format: record.format,
    language: record.language,
    pages: record.pages,
    description: record.description,
    match_key: input.matchKey,
    popularity: 0,
    created_at: now,
    updated_at: now,
  };
}

const identifiersOf = (input: NewBook) =>
  Object.entries(input.record.identifiers).filter(([, value]) => value);

/** The book, its identifiers and the canonical claim as three statements (SQLite: no round trips). */
async function insertBookSteps(trx: Db, input: NewBook, workId: number, now: string) {
  const row = await trx
    .insertInto('books')
    .values(bookValues(input, workId, now))
    .returningAll()
    .executeTakeFirstOrThrow();
  const identifiers = identifiersOf(input);
  if (identifiers.length > 0) {
    await trx
      .insertInto('book_identifiers')
      .values(identifiers.map(([scheme, value]) => ({ book_id: row.id, scheme, value })))
      // An identifier already claimed by another edition stays with that edition.
      .onConflict((oc) => oc.columns(['scheme', 'value']).doNothing())
      .execute();
  }
  await trx
    .updateTable('works')
    .set({ canonical_book_id: row.id })
    .where('id', '=', workId)
    .where('canonical_book_id', 'is', null)
    .execute();
  return row;
}

/**
 * The same in one statement on PostgreSQL (data-modifying CTEs): one round trip instead of up to six.
 * A new work is created with the book as its canonical edition; the book's id is drawn first so the
 * work can name it. A work key another creator filed meanwhile is that work (`do update` returns its
 * id, keeping its canonical edition if it has one). Foreign keys are checked at the statement's end,
 * when the work exists.
 */
async function insertBookPostgres(db: Db, input: NewBook, now: string) {
  const { work } = input;
  const identifiers = identifiersOf(input);
  const book = db
    .insertInto('books')
    .values({
      id: sql<number>`(select id from n)`,
      ...bookValues(input, sql<number>`(select id from w)`, now),
    })
    .returningAll();
  // An existing work without a canonical edition gets this one; a new work is created with it.
  const [found, claimed] =
    typeof work === 'number'
      ? [
          sql`w as (select ${work}::bigint as id)`,
          sql`, claimed as (update works set canonical_book_id = b.id from b
            where works.id = b.work_id and works.canonical_book_id is null)`,
        ]
      : [
          sql`w as (insert into works (work_key, title, canonical_book_id, created_at)
            select ${work.workKey}, ${work.title}, n.id, ${now} from n
            on conflict (work_key) do update
              set canonical_book_id = coalesce(works.canonical_book_id, excluded.canonical_book_id)
            returning id)`,
          sql``,
        ];
  const result = await sql<BookRow>`with n as (select nextval(pg_get_serial_sequence('books', 'id')) as id),
    ${found},
    b as (${book}),
    i as (insert into book_identifiers (book_id, scheme, value)
      select b.id, s.scheme, s.value from b,
        unnest(${identifiers.map(([scheme]) => scheme)}::text[], ${identifiers.map(([, value]) => value)}::text[]) as s(scheme, value)
      on conflict (scheme, value) do nothing)
    ${claimed}
    select * from b`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error('the book insert returned no row');
  return row;
}

export async function addBookIdentifiers(
  db: Db,
  bookId: number,
  identifiers: Record<string, string>,
): Promise<void> {
  const entries = Object.entries(identifiers).filter(([, value]) => value);
  if (entries.length === 0) return;
  await db
    .insertInto('book_identifiers')
    .values(entries.map(([scheme, value]) => ({ book_id: bookId, scheme, value })))
    .onConflict((oc) => oc.columns(['scheme', 'value']).doNothing())
    .execute();
}
