import { type RawBuilder, sql } from 'kysely';
import type { BookRow, CatalogEntryRow, Db } from '../schema.js';
import { BOUNDED_POOL, type Plan, WALKED_POOL } from './postgres-plans.js';
import { type Alternatives, type MatchMode, tsQuery } from './query-text.js';
import { BOOK_COLUMNS, distinct, ENTRY_COLUMNS, POPULAR_SHARE, RANKED_POOL, type Retrieved } from './rows.js';

/**
 * PostgreSQL's retrieval of one full-text query by `plan` (see postgres-plans.ts): the catalog entries
 * and the saved books matching every group (`and`, the last word a prefix, or `spelled` out as the
 * words it starts) or any (`or`).
 */
export async function postgresMatch(
  db: Db,
  groups: Alternatives[],
  mode: MatchMode,
  limit: number,
  plan: Plan,
  spelled: Alternatives | null,
): Promise<Retrieved> {
  const prefixed = mode === 'and';
  const words = spelled
    ? tsQuery([...groups.slice(0, -1), spelled], mode, false)
    : tsQuery(groups, mode, prefixed);
  // Fetch and bounded read the GIN index whatever the words. Given the query as a value worked out
  // once (an InitPlan), not a constant the planner weighs, every search of the statement costs the
  // same to it, and after five PostgreSQL keeps one generic plan instead of planning each search
  // anew: 0.5 ms of its CPU a search, half of it (bench/runs/2026-12-03-run-31.md). A walk and a
  // scan depend on how common the words are, and keep them as a constant.
  const tsq =
    plan === 'fetch' || plan === 'bounded'
      ? sql`(select to_tsquery('simple'::regconfig, ${words}))`
      : sql`to_tsquery('simple'::regconfig, ${words})`;
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
  // Text rank orders the most popular RANKED_POOL of them. The saved books' matches come in the same
  // statement, each part a JSON array: one round trip, and rows the driver does not build field by
  // field (bench/runs/2026-12-03-run-31.md).
  const query = sql<{
    entries: CatalogEntryRow[];
    books: BookRow[];
  }>`with matched as materialized (${matched}),
    pool as (select id, popularity from matched order by popularity desc, id limit ${RANKED_POOL}),
    picked as (
      (select p.id, 0 as part, ts_rank(c.search_tsv, ${tsq}) as score, p.popularity from pool p
        join catalog_entries c on c.id = p.id order by 3 desc, p.popularity desc limit ${limit})
      union all (select id, 1, 0, popularity from pool order by popularity desc, id limit ${popular})),
    saved as (select ${BOOK_COLUMNS} from books b
      where b.search_tsv @@ ${tsq} order by ts_rank(b.search_tsv, ${tsq}) desc limit ${limit})
    select (select coalesce(json_agg((select e from (select ${ENTRY_COLUMNS}) e)
          order by p.part, p.score desc, p.popularity desc, p.id), '[]'::json)
        from picked p join catalog_entries c on c.id = p.id) as entries,
      (select coalesce(json_agg(saved), '[]'::json) from saved) as books`;
  const found =
    plan === 'bounded'
      ? // A limit tempts the planner into a sequential scan that stops at the limit: ruinous when the
        // words are common but seldom together. The GIN index reads only the matches.
        await db.transaction().execute(async (trx) => {
          await sql`set local enable_seqscan = off`.execute(trx);
          return query.execute(trx);
        })
      : await query.execute(db);
  const row = found.rows[0];
  return { books: row?.books ?? [], entries: distinct(row?.entries ?? []) };
}

/** The words trigram retrieval looks for: the first four longer than three letters, numbers left out. */
export const fuzzyWords = (tokens: readonly string[]): string[] =>
  tokens.filter((token) => token.length >= 4 && !/^\d+$/.test(token)).slice(0, 4);

/** Whether pg_trgm was installed (migration 0003 tries). */
export async function readHasTrigrams(db: Db): Promise<boolean> {
  const result = await sql<{
    n: number;
  }>`select count(*) as n from pg_extension where extname = 'pg_trgm'`.execute(db);
  return Number(result.rows[0]?.n) > 0;
}

/** Typo-tolerant retrieval: pg_trgm word similarity of every one of `words` (see fuzzyWords). */
export async function postgresFuzzy(db: Db, words: readonly string[], limit: number): Promise<Retrieved> {
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

/** A word the last import did not see, counted up to this many rows in each table: enough to rank it. */
const UNSEEN_COUNTED = 1000;

/** How many catalog entries and saved books hold a word, counted up to UNSEEN_COUNTED in each. */
export async function unlistedCount(db: Db, word: string): Promise<number> {
  const countIn = (table: 'catalog_entries' | 'books') =>
    sql<{ n: number }>`select count(*) as n from (select 1 from ${sql.table(table)}
      where search_tsv @@ to_tsquery('simple'::regconfig, ${tsQuery([[word]], 'and', false)})
      limit ${UNSEEN_COUNTED}) matched`.execute(db);
  const [entries, books] = await Promise.all([countIn('catalog_entries'), countIn('books')]);
  return Number(entries.rows[0]?.n ?? 0) + Number(books.rows[0]?.n ?? 0);
}
