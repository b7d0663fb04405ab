import { type Kysely, type RawBuilder, sql } from 'kysely';
import { editDistance } from '../domain/ranking.js';
import { nowIso, type Store } from './db.js';
import type { BookRow, CatalogEntryRow, Database, SearchTables } from './schema.js';

export interface Retrieved {
  books: BookRow[];
  entries: CatalogEntryRow[];
}

const STOP = new Set(['the', 'a', 'an', 'of', 'and', 'in', 'to', 'on', 'for']);
const BOOK_COLUMNS = sql.raw(
  'b.id, b.slug, b.work_id, b.isbn13, b.isbn10, b.title, b.subtitle, b.authors, b.cover_url, b.published_date, b.publisher, b.format, b.language, b.pages, b.description, b.match_key, b.popularity, b.created_at, b.updated_at',
);
const ENTRY_COLUMNS = sql.raw(
  'c.id, c.entry_key, c.source, c.isbn13, c.isbn10, c.title, c.subtitle, c.authors, c.published_date, c.publisher, c.cover_url, c.language, c.format, c.pages, c.description, c.identifiers, c.match_key, c.popularity, c.updated_at',
);

/** A token group: the word as typed, plus corrections found in the index vocabulary. */
type Alternatives = string[];

/** FTS5 query text: every token quoted (so no word is read as an operator), groups joined by AND or OR. */
function ftsQuery(groups: Alternatives[], mode: 'and' | 'or', prefixLast: boolean): string {
  const quote = (word: string) => `"${word.replace(/"/g, '""')}"`;
  const parts = groups.map((alternatives, i) => {
    const prefix = prefixLast && i === groups.length - 1 && alternatives[0]!.length >= 3 ? '*' : '';
    const quoted = alternatives.map((word, j) => quote(word) + (j === 0 ? prefix : ''));
    return quoted.length > 1 ? `(${quoted.join(' OR ')})` : (quoted[0] ?? '');
  });
  return parts.join(mode === 'and' ? ' AND ' : ' OR ');
}

/** tsquery text: tokens hold letters and digits only (indexTokens), so none can be an operator. */
function tsQuery(groups: Alternatives[], mode: 'and' | 'or', prefixLast: boolean): string {
  const clean = (word: string) => word.replace(/[^\p{L}\p{N}]/gu, '');
  const parts = groups.map((alternatives, i) => {
    const prefix = prefixLast && i === groups.length - 1 && alternatives[0]!.length >= 3 ? ':*' : '';
    const words = alternatives.map(clean).filter(Boolean);
    return words.length > 1 ? `(${words.join(' | ')})` : `${words[0] ?? ''}${prefix}`;
  });
  return parts.filter(Boolean).join(mode === 'and' ? ' & ' : ' | ');
}

/** Rows by id, once each: the two orders of one match overlap. */
function distinct<T extends { id: number }>(rows: T[]): T[] {
  const seen = new Set<number>();
  return rows.filter((row) => !seen.has(Number(row.id)) && seen.add(Number(row.id)));
}

// Text rank favours short titles ("Harry Potter Boxset"), so the most popular matches join them:
// a famous book whose title merely starts with the query must still reach the ranking.
const POPULAR_SHARE = 0.5;
/**
 * A common word matches hundreds of thousands of entries in a large catalog: text rank orders the
 * most popular this many of them (every match, below that), so no query reads them all.
 */
const RANKED_POOL = 2000;
/** The entry id in a catalog full-text row key (migration 0016: popularity first, id in the low 32 bits). */
const ENTRY_ID = sql.raw('(f.search_key & 4294967295)');

async function sqliteMatch(db: Kysely<Database>, match: string, limit: number): Promise<Retrieved> {
  // Full-text rows are read in key order, most popular first, and the reading stops at the limit.
  const byText = await sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from (
      select rowid as search_key, bm25(catalog_fts, 4.0, 1.0, 2.0) as score from catalog_fts
      where catalog_fts match ${match} order by rowid limit ${RANKED_POOL}) f
    join catalog_entries c on c.id = ${ENTRY_ID} order by f.score limit ${limit}`.execute(db);
  const byPopularity = await sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from (
      select rowid as search_key from catalog_fts where catalog_fts match ${match}
      order by rowid limit ${Math.ceil(limit * POPULAR_SHARE)}) f
    join catalog_entries c on c.id = ${ENTRY_ID} order by f.search_key`.execute(db);
  const entries = { rows: distinct([...byText.rows, ...byPopularity.rows]) };
  const books = await sql<BookRow>`select ${BOOK_COLUMNS} from books_fts f
    join books b on b.id = f.rowid
    where books_fts match ${match} order by bm25(books_fts, 4.0, 1.0) limit ${limit}`.execute(db);
  return { books: books.rows, entries: entries.rows };
}

async function postgresMatch(db: Kysely<Database>, query: string, limit: number): Promise<Retrieved> {
  const tsq = sql`to_tsquery('simple'::regconfig, ${query})`;
  // Separate connections of the pool, so the lookups overlap. Both read matches most popular first
  // (index catalog_entries_popularity), and text rank orders the first RANKED_POOL of them.
  const [byText, byPopularity, books] = await Promise.all([
    sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from (select * from catalog_entries
        where search_tsv @@ ${tsq} order by popularity desc, id limit ${RANKED_POOL}) c
      order by ts_rank(c.search_tsv, ${tsq}) desc, c.popularity desc limit ${limit}`.execute(db),
    sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from catalog_entries c
      where c.search_tsv @@ ${tsq} order by c.popularity desc, c.id
      limit ${Math.ceil(limit * POPULAR_SHARE)}`.execute(db),
    sql<BookRow>`select ${BOOK_COLUMNS} from books b
      where b.search_tsv @@ ${tsq} order by ts_rank(b.search_tsv, ${tsq}) desc limit ${limit}`.execute(db),
  ]);
  return { books: books.rows, entries: distinct([...byText.rows, ...byPopularity.rows]) };
}

function match(store: Store, groups: Alternatives[], mode: 'and' | 'or', limit: number): Promise<Retrieved> {
  if (groups.length === 0) return Promise.resolve({ books: [], entries: [] });
  return store.dialect === 'sqlite'
    ? sqliteMatch(store.db, ftsQuery(groups, mode, mode === 'and'), limit)
    : postgresMatch(store.db, tsQuery(groups, mode, mode === 'and'), limit);
}

/** Indexed words within `allowed` edits of a typed word, with how many rows hold each. */
type Vocabulary = Map<string, number>;

/**
 * Where the catalog's words and counts are read: the table every import refreshes, or the full-text
 * index itself while that table is empty (a catalog no import has filled, where the index is small).
 */
async function catalogTerms(db: Kysely<Database>): Promise<RawBuilder<unknown>> {
  const snapshot = await db.selectFrom('catalog_terms').select('term').limit(1).executeTakeFirst();
  return sql.raw(snapshot ? 'catalog_terms' : 'catalog_fts_vocab');
}

async function vocabularyNear(db: Kysely<Database>, token: string, allowed: number): Promise<Vocabulary> {
  const terms = await catalogTerms(db);
  const prefixes = [...new Set([token.slice(0, 2), `${token[1]}${token[0]}`])];
  const found: Vocabulary = new Map();
  const keep = (rows: Array<{ term: string; doc: number }>) => {
    for (const { term, doc } of rows)
      if (term !== token && editDistance(token, term, allowed) <= allowed)
        found.set(term, (found.get(term) ?? 0) + Number(doc));
  };
  for (const prefix of prefixes) {
    const upper = `${prefix.slice(0, -1)}${String.fromCodePoint(prefix.codePointAt(1)! + 1)}`;
    const rows = await sql<{ term: string; doc: number }>`
      select term, doc from ${terms} where term >= ${prefix} and term < ${upper}
        and length(term) between ${token.length - allowed} and ${token.length + allowed}
      union all select term, doc from books_fts_vocab where term >= ${prefix} and term < ${upper}
        and length(term) between ${token.length - allowed} and ${token.length + allowed}`.execute(db);
    keep(rows.rows);
  }
  if (found.size === 0 && token.length >= 6) {
    // A typo in the second letter ("moddlesex"): scan the first letter's words, length-bounded.
    const first = token[0]!;
    const next = String.fromCodePoint(first.codePointAt(0)! + 1);
    const rows = await sql<{ term: string; doc: number }>`
      select term, doc from ${terms} where term >= ${first} and term < ${next}
        and length(term) between ${token.length - 1} and ${token.length + 1}`.execute(db);
    keep(rows.rows);
  }
  return found;
}

/**
 * Spelling corrections from the FTS5 vocabulary: indexed words sharing the first two letters (or
 * those two swapped) within two edits, nearest and then most common first ("hary" → "harry" before
 * "harp"). A word the index holds keeps itself first; it gains corrections only when `rareToo`
 * and it is far rarer than a neighbour ("poter" may be an author's name, "potter" is the book).
 */
async function sqliteCorrections(
  db: Kysely<Database>,
  token: string,
  rareToo: boolean,
  count: number,
): Promise<string[]> {
  if (token.length < 4 || /^\d+$/.test(token)) return count > 0 ? [token] : [];
  if (count > 0 && !rareToo) return [token];
  const near = await vocabularyNear(db, token, token.length >= 8 ? 2 : 1);
  const ordered = [...near.entries()]
    .filter(([, doc]) => count === 0 || doc >= 10 * count)
    .sort((a, b) => editDistance(token, a[0]) - editDistance(token, b[0]) || b[1] - a[1])
    .map(([term]) => term)
    .slice(0, 4);
  // A word no entry holds can only empty an AND query: it is dropped unless it has a correction.
  return count > 0 ? [token, ...ordered] : ordered;
}

/** How many rows of the catalog and of the saved books hold each word. */
async function indexedCounts(db: Kysely<Database>, tokens: readonly string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (tokens.length === 0) return counts;
  const unique = [...new Set(tokens)];
  const add = (rows: ReadonlyArray<{ term: string; doc: number }>) => {
    for (const { term, doc } of rows) counts.set(term, (counts.get(term) ?? 0) + Number(doc));
  };
  const known = await db
    .selectFrom('catalog_terms')
    .select(['term', 'doc'])
    .where('term', 'in', unique)
    .execute();
  add(known);
  // A word the last import did not see (or every word, before any import) is counted in the index:
  // cheap for the rare words it will be, where a common word's count would read its every row.
  const counted = new Set(known.map((row) => row.term));
  const unseen = unique.filter((word) => !counted.has(word));
  const rows = await sql<{ term: string; doc: number }>`
    select term, doc from books_fts_vocab where term in (${sql.join(unique)})
    ${unseen.length > 0 ? sql`union all select term, doc from catalog_fts_vocab where term in (${sql.join(unseen)})` : sql``}`.execute(
    db,
  );
  add(rows.rows);
  return counts;
}

/**
 * Refreshes the catalog's words and their counts from the full-text index (SQLite; PostgreSQL's
 * corrections use trigrams): one pass over the index, run at the end of an import.
 */
export async function refreshCatalogTerms(store: Store): Promise<void> {
  if (store.dialect !== 'sqlite') return;
  await store.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('catalog_terms').execute();
    await sql`insert into catalog_terms (term, doc) select term, doc from catalog_fts_vocab`.execute(trx);
  });
}

const trigrams = new WeakMap<Kysely<Database>, Promise<boolean>>();

/** Whether pg_trgm was installed (migration 0003 tries); asked once per database handle. */
function hasTrigrams(db: Kysely<Database>): Promise<boolean> {
  let known = trigrams.get(db);
  if (!known) {
    known = sql<{ n: number }>`select count(*) as n from pg_extension where extname = 'pg_trgm'`
      .execute(db)
      .then((result) => Number(result.rows[0]?.n) > 0);
    trigrams.set(db, known);
  }
  return known;
}

/** Typo-tolerant retrieval on PostgreSQL: pg_trgm word similarity of every longer word. */
async function postgresFuzzy(db: Kysely<Database>, tokens: string[], limit: number): Promise<Retrieved> {
  const words = tokens.filter((token) => token.length >= 4 && !/^\d+$/.test(token)).slice(0, 4);
  if (words.length === 0) return { books: [], entries: [] };
  if (!(await hasTrigrams(db))) return { books: [], entries: [] };
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('pg_trgm.word_similarity_threshold', '0.4', true)`.execute(trx);
    const folded = (alias: string) => sql.raw(`booklink_fold(${alias}.title || ' ' || ${alias}.authors)`);
    const all = (alias: string): RawBuilder<unknown> =>
      sql.join(
        words.map((word) => sql`${folded(alias)} %> ${word}`),
        sql` and `,
      );
    const entries = await sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from catalog_entries c
      where ${all('c')} order by c.popularity desc limit ${limit}`.execute(trx);
    const books =
      await sql<BookRow>`select ${BOOK_COLUMNS} from books b where ${all('b')} limit ${limit}`.execute(trx);
    return { books: books.rows, entries: entries.rows };
  });
}

const merge = (a: Retrieved, b: Retrieved): Retrieved => ({
  books: [...a.books, ...b.books],
  entries: [...a.entries, ...b.entries],
});
const size = (r: Retrieved) => r.books.length + r.entries.length;

/**
 * Candidates for a text query from saved books and the catalog: all words first; then any
 * significant word; then spelling corrections (SQLite vocabulary, PostgreSQL trigrams).
 * Duplicates are left for the caller, which merges by ISBN anyway.
 */
export async function retrieveCandidates(store: Store, tokens: string[], limit = 40): Promise<Retrieved> {
  // Small words need not be indexed as typed ("Angels & Demons" holds no "and").
  const meaningful = tokens.filter((word) => !STOP.has(word));
  const words = (meaningful.length > 0 ? meaningful : tokens).slice(0, 12);
  let found = await match(
    store,
    words.map((word) => [word]),
    'and',
    limit,
  );
  if (size(found) >= 8) return found;
  const significant = words.filter((word) => !STOP.has(word) && word.length > 1);
  if (store.dialect === 'sqlite') {
    const rareToo = size(found) === 0;
    const counts = await indexedCounts(store.db, words);
    const corrected = await Promise.all(
      words.map((word) => sqliteCorrections(store.db, word, rareToo, counts.get(word) ?? 0)),
    );
    const usable = corrected.filter((alternatives) => alternatives.length > 0);
    if (
      usable.length > 0 &&
      corrected.some((alternatives, i) => alternatives.length !== 1 || alternatives[0] !== words[i])
    ) {
      found = merge(found, await match(store, usable, 'and', limit));
    }
  } else if (size(found) === 0) {
    found = merge(found, await postgresFuzzy(store.db, words, limit));
  }
  // The widest net, and the slowest on a large catalog: only when nothing else matched.
  if (size(found) === 0 && significant.length > 1) {
    found = merge(
      found,
      await match(
        store,
        significant.map((word) => [word]),
        'or',
        limit,
      ),
    );
  }
  return found;
}

/** Saved books an operator pinned to this folded query. */
export async function pinnedBooks(db: Kysely<Database>, queryKey: string): Promise<BookRow[]> {
  return db
    .selectFrom('search_pins')
    .innerJoin('books', 'books.id', 'search_pins.book_id')
    .selectAll('books')
    .where('search_pins.query_key', '=', queryKey)
    .orderBy('search_pins.id')
    .execute() as Promise<BookRow[]>;
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

export type NewSearch = Omit<SearchTables['searches'], 'id' | 'created_at'>;

/** Logs one search and returns its id, the `sfid` result links carry. */
export async function logSearch(db: Kysely<Database>, search: NewSearch): Promise<number> {
  const row = await db
    .insertInto('searches')
    .values({ ...search, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function searchExists(db: Kysely<Database>, sfid: number): Promise<boolean> {
  const row = await db.selectFrom('searches').select('id').where('id', '=', sfid).executeTakeFirst();
  return row !== undefined;
}

/** A search as the log recorder keeps it: the time it was asked, not the time it is written. */
export type LoggedSearch = Omit<SearchTables['searches'], 'id'>;

// Ten columns a row: far below either database's bound-parameter limit.
const SEARCHES_PER_STATEMENT = 200;

/** Writes logged searches in one transaction, several rows per statement. */
export async function insertSearches(db: Kysely<Database>, rows: readonly LoggedSearch[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += SEARCHES_PER_STATEMENT) {
      await trx
        .insertInto('searches')
        .values(rows.slice(start, start + SEARCHES_PER_STATEMENT))
        .execute();
    }
  });
}

export type NewFeedback = Omit<SearchTables['search_feedback'], 'id' | 'created_at'>;
export type NewMiss = Omit<SearchTables['search_misses'], 'id' | 'created_at'>;

export async function logFeedback(db: Kysely<Database>, feedback: NewFeedback): Promise<void> {
  await db
    .insertInto('search_feedback')
    .values({ ...feedback, created_at: nowIso() })
    .execute();
}

export async function logMiss(db: Kysely<Database>, miss: NewMiss): Promise<void> {
  await db
    .insertInto('search_misses')
    .values({ ...miss, created_at: nowIso() })
    .execute();
}

export async function logVote(
  db: Kysely<Database>,
  sfid: number,
  feedback: 'positive' | 'negative',
): Promise<void> {
  await db.insertInto('search_votes').values({ sfid, feedback, created_at: nowIso() }).execute();
}

/** Every edition sharing these match keys: the ranking needs a work's whole family to choose its edition. */
export async function editionsByMatchKeys(
  db: Kysely<Database>,
  keys: string[],
  limit = 200,
): Promise<Retrieved> {
  if (keys.length === 0) return { books: [], entries: [] };
  const [entries, books] = await Promise.all([
    sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from catalog_entries c
      where c.match_key in (${sql.join(keys)}) limit ${limit}`.execute(db),
    sql<BookRow>`select ${BOOK_COLUMNS} from books b where b.match_key in (${sql.join(keys)}) limit ${limit}`.execute(
      db,
    ),
  ]);
  return { books: books.rows, entries: entries.rows };
}
