import { CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely';
import { editDistance } from '../domain/ranking.js';
import { compiledOnce } from './compiled.js';
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
const ENTRY_ID = sql.raw('(f.rowid & 4294967295)');

async function sqliteMatch(db: Kysely<Database>, match: string, limit: number): Promise<Retrieved> {
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
async function sqliteMatchingIds(db: Kysely<Database>, match: string, limit: number): Promise<number[]> {
  const first = await sql<{ id: number }>`select ${ENTRY_ID} as id from catalog_fts f
    where catalog_fts match ${match} order by f.rowid limit ${limit + 1}`.execute(db);
  if (first.rows.length <= limit) return first.rows.map((row) => Number(row.id));
  const keyed = await sql<{ id: number; score: number }>`select ${ENTRY_ID} as id,
      bm25(catalog_fts, 4.0, 1.0, 2.0) as score from catalog_fts f
    where catalog_fts match ${match} order by f.rowid limit ${RANKED_POOL}`.execute(db);
  const byPopularity = keyed.rows.slice(0, Math.ceil(limit * POPULAR_SHARE));
  // A stable sort: equal ranks stay most popular first.
  const byText = [...keyed.rows].sort((a, b) => a.score - b.score).slice(0, limit);
  return [...new Set([...byText, ...byPopularity].map((row) => Number(row.id)))];
}

/** Catalog entries in the order of `ids`. */
async function entriesById(db: Kysely<Database>, ids: readonly number[]): Promise<CatalogEntryRow[]> {
  if (ids.length === 0) return [];
  const rows = await sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from catalog_entries c
    where c.id in (${sql.join(ids)})`.execute(db);
  const byId = new Map(rows.rows.map((row) => [Number(row.id), row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * PostgreSQL cannot read a GIN index in popularity order, and its estimates for prefix words are
 * blind, so the plan is chosen here from the word list's counts, by cost (µs, measured at 1M and 10M
 * entries on this project's bench machine, bench/README):
 * - fetch: every match from the GIN index (GIN_US an entry of its posting lists, then FETCH_US a match:
 *   a heap page), of which text rank orders the most popular RANKED_POOL;
 * - walk: down the popularity index (WALK_US a row), which finds a word held by `n` of `total` entries
 *   every `total / n` rows, until WALKED_POOL matches;
 * - bounded: every rated match from the rated entries' own index (migration 0018), and BOUNDED_POOL of
 *   the others, the first the GIN index gives, instead of them all: in a catalog of millions most
 *   entries are unrated (an Open Library dump carries no popularity), and their order is the id's,
 *   which means nothing to a reader either;
 * - scan: the rated matches as in `bounded`, and the first BOUNDED_POOL others of a sequential scan
 *   (SCAN_US a row), which stops there: no posting list is read whole.
 * Walks and scans are for one word (or one group of alternatives): the GIN index intersects several
 * words first, where a walk or a scan would look for a rare combination row by row.
 */
const FETCH_US = 20;
const GIN_US = 0.12;
const WALK_US = 9;
const SCAN_US = 0.6;
/** The popularity walk reads this many matches for text rank: its cost grows with pool ÷ frequency. */
const WALKED_POOL = 200;
/** Unrated matches a bounded plan or a scan reads for text rank. */
const BOUNDED_POOL = 200;

type Plan = 'fetch' | 'walk' | 'bounded' | 'scan';

/**
 * The cheapest plan for `matches` entries (exact for one group; at most that for an AND of groups,
 * which matches fewer than its rarest).
 */
export function cheapestPlan(
  matches: number,
  groups: number,
  catalog: { rows: number; ratedShare: number },
): Plan {
  const rated = matches * catalog.ratedShare;
  const rowsPerMatch = catalog.rows / Math.max(matches, 1);
  const costs: Array<[Plan, number]> = [
    ['fetch', matches * (GIN_US + FETCH_US)],
    ['bounded', matches * GIN_US + (rated + BOUNDED_POOL) * FETCH_US],
  ];
  if (groups === 1) {
    costs.push(['walk', WALKED_POOL * rowsPerMatch * WALK_US]);
    costs.push(['scan', rated * FETCH_US + BOUNDED_POOL * rowsPerMatch * SCAN_US]);
  }
  return costs.reduce((best, next) => (next[1] < best[1] ? next : best))[0];
}

interface CatalogShape {
  rows: number;
  /** The share of entries with a popularity (the rest are 0), as ANALYZE sampled it. */
  ratedShare: number;
  at: number;
}
const shapes = new WeakMap<Kysely<Database>, CatalogShape>();

/** The catalog's row count and rated share as PostgreSQL's statistics have them (read once a minute per handle). */
async function catalogShape(db: Kysely<Database>): Promise<CatalogShape> {
  const known = shapes.get(db);
  if (known && Date.now() - known.at < 60_000) return known;
  const result = await sql<{ rows: number; unrated: number | null }>`select
      (select reltuples from pg_class where oid = 'catalog_entries'::regclass) as rows,
      (select most_common_freqs[array_position(most_common_vals::text::int[], 0)] from pg_stats
        where schemaname = current_schema() and tablename = 'catalog_entries' and attname = 'popularity') as unrated`.execute(
    db,
  );
  const row = result.rows[0];
  const shape = {
    rows: Math.max(0, Number(row?.rows ?? 0)),
    // No statistics yet: every entry counts as rated, which never makes the bounded plan look cheaper.
    ratedShare: row?.unrated == null ? 1 : 1 - Number(row.unrated),
    at: Date.now(),
  };
  shapes.set(db, shape);
  return shape;
}

/** The upper bound of the words starting with `prefix`: its last character moved one up. */
function prefixEnd(prefix: string): string {
  return `${prefix.slice(0, -1)}${String.fromCodePoint((prefix.codePointAt(prefix.length - 1) ?? 0) + 1)}`;
}

/** How many entries hold each group's words (a prefix: every word it starts), from the word list. */
async function postgresEstimate(
  db: Kysely<Database>,
  groups: Alternatives[],
  mode: 'and' | 'or',
  prefixLast: boolean,
): Promise<number> {
  const parts = groups.map((alternatives, i) => {
    const [first = '', ...rest] = alternatives;
    const prefix = prefixLast && i === groups.length - 1 && first.length >= 3;
    const upper = prefixEnd(first);
    const words = prefix ? rest : alternatives;
    const exact = words.length > 0 ? sql`term in (${sql.join(words)})` : sql`false`;
    const where = prefix ? sql`(${exact} or (term >= ${first} and term < ${upper}))` : exact;
    return sql`select ${i}::int as g, doc from catalog_terms where ${where}`;
  });
  const rows = await sql<{
    g: number;
    n: number;
  }>`select g, sum(doc) as n from (${sql.join(parts, sql` union all `)}) t
    group by g`.execute(db);
  const counts = groups.map((_, i) => Number(rows.rows.find((row) => Number(row.g) === i)?.n ?? 0));
  return mode === 'and' ? Math.min(...counts) : counts.reduce((sum, n) => sum + n, 0);
}

async function postgresPlan(
  db: Kysely<Database>,
  groups: Alternatives[],
  mode: 'and' | 'or',
  prefixLast: boolean,
): Promise<Plan> {
  if (!(await wordListed(db))) return 'fetch';
  const [matches, shape] = await Promise.all([
    postgresEstimate(db, groups, mode, prefixLast),
    catalogShape(db),
  ]);
  return cheapestPlan(matches, mode === 'and' ? groups.length : 1, shape);
}

/** A typed prefix is spelled out as the listed words it starts when they are at most this many. */
const SPELLED_PREFIX = 16;

/**
 * The last group with its prefix spelled out as the listed words it starts ("secret" → secret,
 * secrets, secretary), or null to keep the prefix. The GIN index reads a prefix by collecting every
 * entry of every word it starts before intersecting ("husbands & secret:*": 48 ms at 10M, against 2 ms
 * for the words), where it skips through a common word's entries using the rare word's. Words filed
 * since the last import are not listed: a prefix reaches them only once the next import lists them.
 */
async function spelledPrefix(db: Kysely<Database>, alternatives: Alternatives): Promise<Alternatives | null> {
  const [prefix = '', ...rest] = alternatives;
  if (prefix.length < 3 || !(await wordListed(db))) return null;
  const rows = await db
    .selectFrom('catalog_terms')
    .select('term')
    .where('term', '>=', prefix)
    .where('term', '<', prefixEnd(prefix))
    .orderBy('term')
    .limit(SPELLED_PREFIX + 1)
    .execute();
  if (rows.length === 0 || rows.length > SPELLED_PREFIX) return null;
  return [...new Set([prefix, ...rows.map((row) => row.term), ...rest])];
}

async function postgresMatch(
  db: Kysely<Database>,
  groups: Alternatives[],
  mode: 'and' | 'or',
  limit: number,
): Promise<Retrieved> {
  const prefixed = mode === 'and';
  const last = groups.at(-1) ?? [];
  const [plan, spelled] = await Promise.all([
    postgresPlan(db, groups, mode, prefixed),
    prefixed ? spelledPrefix(db, last) : null,
  ]);
  const tsq = sql`to_tsquery('simple'::regconfig, ${
    spelled ? tsQuery([...groups.slice(0, -1), spelled], mode, false) : tsQuery(groups, mode, prefixed)
  })`;
  const popular = Math.ceil(limit * POPULAR_SHARE);
  const books = () =>
    sql<BookRow>`select ${BOOK_COLUMNS} from books b
      where b.search_tsv @@ ${tsq} order by ts_rank(b.search_tsv, ${tsq}) desc limit ${limit}`.execute(db);
  if (plan === 'walk') {
    // `is true` keeps the GIN index out: the matches are read down the popularity index, and the walk
    // stops at the limit. Separate connections of the pool, so the lookups overlap.
    const [byText, byPopularity, saved] = await Promise.all([
      sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from (select * from catalog_entries
          where (search_tsv @@ ${tsq}) is true order by popularity desc, id limit ${WALKED_POOL}) c
        order by ts_rank(c.search_tsv, ${tsq}) desc, c.popularity desc limit ${limit}`.execute(db),
      sql<CatalogEntryRow>`select ${ENTRY_COLUMNS} from catalog_entries c
        where (c.search_tsv @@ ${tsq}) is true order by c.popularity desc, c.id limit ${popular}`.execute(db),
      books(),
    ]);
    return { books: saved.rows, entries: distinct([...byText.rows, ...byPopularity.rows]) };
  }
  // The matches read: every one, or every rated one and the first BOUNDED_POOL others.
  const rated = sql`select id, popularity from catalog_entries where popularity > 0 and search_tsv @@ ${tsq}`;
  const matched =
    plan === 'fetch'
      ? sql`select id, popularity from catalog_entries where search_tsv @@ ${tsq}`
      : plan === 'bounded'
        ? sql`(${rated}) union (select id, popularity from catalog_entries
            where search_tsv @@ ${tsq} limit ${BOUNDED_POOL})`
        : // `is true` keeps the GIN index out of the unrated share: a sequential scan, stopped early.
          sql`(${rated}) union (select id, popularity from catalog_entries
            where (search_tsv @@ ${tsq}) is true limit ${BOUNDED_POOL})`;
  // Text rank orders the most popular RANKED_POOL of them.
  const query = sql<CatalogEntryRow>`with matched as materialized (${matched}),
    pool as (select id, popularity from matched order by popularity desc, id limit ${RANKED_POOL}),
    picked as (
      (select p.id, 0 as part, ts_rank(c.search_tsv, ${tsq}) as score, p.popularity from pool p
        join catalog_entries c on c.id = p.id order by 3 desc, p.popularity desc limit ${limit})
      union all (select id, 1, 0, popularity from pool order by popularity desc, id limit ${popular}))
    select ${ENTRY_COLUMNS} from picked p join catalog_entries c on c.id = p.id
    order by p.part, p.score desc, p.popularity desc, p.id`;
  const entries =
    plan === 'bounded'
      ? // A limit tempts the planner into a sequential scan that stops at the limit: ruinous when the
        // words are common but seldom together. The GIN index reads only the matches.
        db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          return query.execute(trx);
        })
      : query.execute(db);
  const [found, saved] = await Promise.all([entries, books()]);
  return { books: saved.rows, entries: distinct(found.rows) };
}

function match(store: Store, groups: Alternatives[], mode: 'and' | 'or', limit: number): Promise<Retrieved> {
  if (groups.length === 0) return Promise.resolve({ books: [], entries: [] });
  return store.dialect === 'sqlite'
    ? sqliteMatch(store.db, ftsQuery(groups, mode, mode === 'and'), limit)
    : postgresMatch(store.db, groups, mode, limit);
}

/** Indexed words within `allowed` edits of a typed word, with how many rows hold each. */
type Vocabulary = Map<string, number>;

interface TermRow {
  term: string;
  doc: number;
}

/**
 * The index's words and how many rows hold each, for spelling corrections. SQLite reads them from
 * `catalog_terms` (every import refreshes it) or, while that is empty, from the full-text index
 * itself, and the saved books' from their own index. PostgreSQL reads `catalog_terms` alone: its
 * corrections use trigrams until an import has filled it (`wordListed`).
 */
interface Terms {
  /** Words from `lower` (inclusive) to `upper` (exclusive) whose length is within `lengths`. */
  range(lower: string, upper: string, lengths: readonly [number, number]): Promise<TermRow[]>;
  /** How many rows of the catalog and of the saved books hold each word. */
  counts(words: readonly string[]): Promise<Map<string, number>>;
}

const add = (counts: Map<string, number>, rows: readonly TermRow[]) => {
  for (const { term, doc } of rows) counts.set(term, (counts.get(term) ?? 0) + Number(doc));
  return counts;
};

// Per search, so written as SQL rather than built: Kysely's builder cost more than the query.
async function listedCounts(db: Kysely<Database>, words: readonly string[]): Promise<TermRow[]> {
  if (words.length === 0) return [];
  return (
    await sql<TermRow>`select term, doc from catalog_terms where term in (${sql.join(words)})`.execute(db)
  ).rows;
}

async function sqliteTerms(store: Store): Promise<Terms> {
  const { db } = store;
  const connection = connectionOf(store);
  const listed = await wordListed(db, connection);
  return {
    async range(lower, upper, lengths) {
      const [shortest, longest] = lengths;
      const saved = sql<TermRow>`select term, doc from books_fts_vocab where term >= ${lower} and term < ${upper}
          and length(term) between ${shortest} and ${longest}`;
      if (listed) {
        const catalog = await listedPrefixes(connection).range(db, lower, upper, lengths);
        return [...catalog, ...(await saved.execute(db)).rows];
      }
      return (
        await sql<TermRow>`select term, doc from catalog_fts_vocab where term >= ${lower} and term < ${upper}
          and length(term) between ${shortest} and ${longest}
        union all ${saved}`.execute(db)
      ).rows;
    },
    async counts(words) {
      const known = listed ? await listedCounts(db, words) : [];
      // A word the last import did not see (every word, before any import) is counted in the index:
      // cheap for the rare words it will be, where a common word's count reads its every row.
      const seen = new Set(known.map((row) => row.term));
      const unseen = words.filter((word) => !seen.has(word));
      const rows = await sql<TermRow>`
        select term, doc from books_fts_vocab where term in (${sql.join(words)})
        ${unseen.length > 0 ? sql`union all select term, doc from catalog_fts_vocab where term in (${sql.join(unseen)})` : sql``}`.execute(
        db,
      );
      return add(add(new Map(), known), rows.rows);
    },
  };
}

/** A word the last import did not see, counted up to this many rows in each table: enough to rank it. */
const UNSEEN_COUNTED = 1000;

function postgresTerms(db: Kysely<Database>): Terms {
  const prefixes = listedPrefixes(db);
  const countIn = (table: 'catalog_entries' | 'books', word: string) =>
    sql<{ n: number }>`select count(*) as n from (select 1 from ${sql.table(table)}
      where search_tsv @@ to_tsquery('simple'::regconfig, ${tsQuery([[word]], 'and', false)})
      limit ${UNSEEN_COUNTED}) matched`.execute(db);
  return {
    range: (lower, upper, lengths) => prefixes.range(db, lower, upper, lengths),
    async counts(words) {
      const counts = add(new Map(), await listedCounts(db, words));
      for (const word of words.filter((w) => !counts.has(w) && /[\p{L}\p{N}]/u.test(w))) {
        const [entries, books] = await Promise.all([
          countIn('catalog_entries', word),
          countIn('books', word),
        ]);
        const n = Number(entries.rows[0]?.n ?? 0) + Number(books.rows[0]?.n ?? 0);
        if (n > 0) counts.set(word, n);
      }
      return counts;
    },
  };
}

/** What names a connection for what is remembered of it: a SQLite read transaction's `db` is new each search. */
const connectionOf = (store: Store): object => store.sqlite ?? store.db;

/** A listed word with its length in characters, as SQL's `length` counts them. */
interface ListedWord extends TermRow {
  length: number;
}

/** A prefix starting more words than this is read by length each time (a large catalog's common prefixes). */
const PREFIX_WORDS_KEPT = 5_000;
/** Words kept per connection, over every prefix; the least recently read prefixes go first. */
const LISTED_WORDS_KEPT = 100_000;

/** The listed words from `lower` (inclusive) to `upper` (exclusive) whose length is within `lengths`. */
async function listedRange(
  db: Kysely<Database>,
  lower: string,
  upper: string,
  [shortest, longest]: readonly [number, number],
): Promise<TermRow[]> {
  return (
    await sql<TermRow>`select term, doc from catalog_terms where term >= ${lower} and term < ${upper}
      and length(term) between ${shortest} and ${longest}`.execute(db)
  ).rows;
}

/**
 * The listed words (`catalog_terms`) each prefix starts, kept per connection. Corrections read the
 * same few hundred prefixes for every misspelt word, each a range of hundreds of words, where one
 * search asks for up to a dozen. The list changes only when an import ends: `refreshSearchStatistics`
 * drops what this process kept, and another process's import is seen within LISTING_KNOWN_MS, as
 * `wordListed` sees it. Words come in the order SQL gives them, each prefix's read whole, then
 * filtered by length here.
 */
class ListedPrefixes {
  private readonly kept = new Map<string, { words: ListedWord[] | null; at: number }>();
  private count = 0;

  async range(
    db: Kysely<Database>,
    lower: string,
    upper: string,
    lengths: readonly [number, number],
  ): Promise<TermRow[]> {
    const key = `${lower}\u0000${upper}`;
    let known = this.kept.get(key);
    if (known && Date.now() - known.at >= LISTING_KNOWN_MS) {
      this.forget(key);
      known = undefined;
    }
    if (!known) {
      known = { words: await this.read(db, lower, upper), at: Date.now() };
      this.remember(key, known);
    } else {
      // Re-inserted so the Map's order is least recently read first.
      this.kept.delete(key);
      this.kept.set(key, known);
    }
    if (!known.words) return listedRange(db, lower, upper, lengths);
    const [shortest, longest] = lengths;
    return known.words.filter((word) => word.length >= shortest && word.length <= longest);
  }

  /** A prefix's every listed word, or null when it starts more than PREFIX_WORDS_KEPT. */
  private async read(db: Kysely<Database>, lower: string, upper: string): Promise<ListedWord[] | null> {
    const rows =
      await sql<TermRow>`select term, doc from catalog_terms where term >= ${lower} and term < ${upper}
      limit ${PREFIX_WORDS_KEPT + 1}`.execute(db);
    if (rows.rows.length > PREFIX_WORDS_KEPT) return null;
    return rows.rows.map(({ term, doc }) => ({ term, doc, length: characters(term) }));
  }

  private remember(key: string, known: { words: ListedWord[] | null; at: number }): void {
    // Two searches may have read the same prefix at once: the words are counted once.
    this.forget(key);
    this.kept.set(key, known);
    this.count += known.words?.length ?? 0;
    for (const oldest of this.kept.keys()) {
      if (this.count <= LISTED_WORDS_KEPT) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    this.count -= this.kept.get(key)?.words?.length ?? 0;
    this.kept.delete(key);
  }
}

/** Characters (code points) in a word, as SQLite's and PostgreSQL's `length` count them. */
function characters(word: string): number {
  let count = 0;
  for (let i = 0; i < word.length; i++) {
    const unit = word.charCodeAt(i);
    // A high surrogate and the low one after it are one character.
    if (unit < 0xd800 || unit > 0xdbff) count++;
  }
  return count;
}

const prefixesKept = new WeakMap<object, ListedPrefixes>();

function listedPrefixes(connection: object): ListedPrefixes {
  let prefixes = prefixesKept.get(connection);
  if (!prefixes) {
    prefixes = new ListedPrefixes();
    prefixesKept.set(connection, prefixes);
  }
  return prefixes;
}

const listings = new WeakMap<object, { listed: boolean; at: number }>();
/** How long a connection trusts what it read: a server learns of another process's import within it. */
const LISTING_KNOWN_MS = 60_000;

/**
 * Whether an import has listed the catalog's words (`catalog_terms` holds any); read once a minute per
 * connection. `connection` names it where `db` is not the same object from one search to the next (a
 * SQLite read transaction's handle is new each time).
 */
async function wordListed(db: Kysely<Database>, connection: object = db): Promise<boolean> {
  const known = listings.get(connection);
  if (known && Date.now() - known.at < LISTING_KNOWN_MS) return known.listed;
  const row = await db.selectFrom('catalog_terms').select('term').limit(1).executeTakeFirst();
  listings.set(connection, { listed: row !== undefined, at: Date.now() });
  return row !== undefined;
}

async function vocabularyNear(terms: Terms, token: string, allowed: number): Promise<Vocabulary> {
  const prefixes = [...new Set([token.slice(0, 2), `${token[1]}${token[0]}`])];
  const found: Vocabulary = new Map();
  const keep = (rows: readonly TermRow[]) => {
    for (const { term, doc } of rows)
      if (term !== token && editDistance(token, term, allowed) <= allowed)
        found.set(term, (found.get(term) ?? 0) + Number(doc));
  };
  for (const prefix of prefixes) {
    keep(await terms.range(prefix, prefixEnd(prefix), [token.length - allowed, token.length + allowed]));
  }
  if (found.size === 0 && token.length >= 6) {
    // A typo in the second letter ("moddlesex"): scan the first letter's words, length-bounded.
    const first = token[0]!;
    keep(await terms.range(first, prefixEnd(first), [token.length - 1, token.length + 1]));
  }
  return found;
}

/**
 * Spelling corrections from the index's words: those sharing the first two letters (or those two
 * swapped) within two edits, nearest and then most common first ("hary" → "harry" before "harp").
 * A word the index holds keeps itself first; it gains corrections only when `rareToo` and it is far
 * rarer than a neighbour ("poter" may be an author's name, "potter" is the book).
 */
async function corrections(terms: Terms, token: string, rareToo: boolean, count: number): Promise<string[]> {
  if (token.length < 4 || /^\d+$/.test(token)) return count > 0 ? [token] : [];
  if (count > 0 && !rareToo) return [token];
  const near = await vocabularyNear(terms, token, token.length >= 8 ? 2 : 1);
  const ordered = [...near.entries()]
    .filter(([, doc]) => count === 0 || doc >= 10 * count)
    .sort((a, b) => editDistance(token, a[0]) - editDistance(token, b[0]) || b[1] - a[1])
    .map(([term]) => term)
    .slice(0, 4);
  // A word no entry holds can only empty an AND query: it is dropped unless it has a correction.
  return count > 0 ? [token, ...ordered] : ordered;
}

/**
 * What search plans with, refreshed at the end of an import: the catalog's words and their counts
 * (one pass over the full-text index), and on PostgreSQL the planner's statistics of the catalog,
 * which a bulk load leaves stale until autovacuum comes by (or for good, where it is off), and its
 * GIN indexes' pending entries, merged.
 */
export async function refreshSearchStatistics(store: Store): Promise<void> {
  await store.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('catalog_terms').execute();
    await sql
      .raw(
        store.dialect === 'sqlite'
          ? 'insert into catalog_terms (term, doc) select term, doc from catalog_fts_vocab'
          : `insert into catalog_terms (term, doc) select word, ndoc from ts_stat('select search_tsv from catalog_entries')`,
      )
      .execute(trx);
  });
  if (store.dialect === 'postgres') {
    await sql`analyze catalog_entries, catalog_identifiers, catalog_terms`.execute(store.db);
    // An import that wrote through live full-text and trigram indexes (a re-import) leaves up to 4 MB
    // of each one's GIN pending list, which every search scans until a vacuum merges it.
    await sql`select gin_clean_pending_list(i.indexrelid::regclass) from pg_index i
      join pg_class c on c.oid = i.indexrelid join pg_am am on am.oid = c.relam
      where i.indrelid = 'catalog_entries'::regclass and am.amname = 'gin'`.execute(store.db);
  }
  forgetListedWords(store);
}

/**
 * Drops what this process remembers of the listed words (whether there are any, each prefix's): the
 * next search reads them again. For a change another process announced (an import that ended).
 */
export function forgetListedWords(store: Store): void {
  listings.delete(connectionOf(store));
  prefixesKept.delete(connectionOf(store));
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
 * significant word; then spelling corrections (the index's words; PostgreSQL's trigrams before any import).
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
  const terms =
    store.dialect === 'sqlite'
      ? await sqliteTerms(store)
      : (await wordListed(store.db))
        ? postgresTerms(store.db)
        : null;
  if (terms) {
    const rareToo = size(found) === 0;
    const counts = await terms.counts([...new Set(words)]);
    const corrected = await Promise.all(
      words.map((word) => corrections(terms, word, rareToo, counts.get(word) ?? 0)),
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
const SEARCH_COLUMNS = [
  'query',
  'query_key',
  'parsed_title',
  'parsed_author',
  'kind',
  'result_count',
  'top_book_key',
  'source',
  'channel',
  'created_at',
] as const satisfies ReadonlyArray<keyof LoggedSearch>;

/** The insert of `count` log rows, compiled once per dialect and size (it runs on every flush). */
function searchInsertSql(db: Kysely<Database>, count: number): string {
  return compiledOnce(db, `searches:${count}`, () => {
    const blank = Object.fromEntries(SEARCH_COLUMNS.map((column) => [column, ''])) as unknown as LoggedSearch;
    return db
      .insertInto('searches')
      .values(Array.from({ length: count }, () => blank))
      .compile().sql;
  });
}

/** Writes logged searches in one transaction, several rows per statement. */
export async function insertSearches(db: Kysely<Database>, rows: readonly LoggedSearch[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += SEARCHES_PER_STATEMENT) {
      const chunk = rows.slice(start, start + SEARCHES_PER_STATEMENT);
      const parameters = chunk.flatMap((row) => SEARCH_COLUMNS.map((column) => row[column] ?? null));
      await trx.executeQuery(CompiledQuery.raw(searchInsertSql(trx, chunk.length), parameters));
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
