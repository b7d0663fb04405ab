import { sql } from 'kysely';
import type { Store } from '../db.js';
import type { Db } from '../schema.js';

/**
 * The catalog's word list (`catalog_terms`, every import refreshes it) that spelling corrections and
 * PostgreSQL's plans read, and its refresh.
 */

/** A word and how many rows hold it. */
export interface TermRow {
  term: string;
  doc: number;
}

// Per search, so written as SQL rather than built: Kysely's builder cost more than the query.
export async function listedCounts(db: Db, words: readonly string[]): Promise<TermRow[]> {
  if (words.length === 0) return [];
  return (
    await sql<TermRow>`select term, doc from catalog_terms where term in (${sql.join(words)})`.execute(db)
  ).rows;
}

/** The words from `lower` (inclusive) to `upper` (exclusive) whose length is within `lengths`. */
export type TermRange = (
  db: Db,
  lower: string,
  upper: string,
  lengths: readonly [number, number],
) => Promise<TermRow[]>;

/**
 * A `TermRange` over word tables of `term` and `doc` columns (this list, or SQLite's full-text
 * vocabularies), their rows one after the other.
 */
export async function wordRange(
  db: Db,
  tables: readonly string[],
  lower: string,
  upper: string,
  [shortest, longest]: readonly [number, number],
): Promise<TermRow[]> {
  const selects = tables.map(
    (table) => sql`select term, doc from ${sql.table(table)} where term >= ${lower} and term < ${upper}
      and length(term) between ${shortest} and ${longest}`,
  );
  return (await sql<TermRow>`${sql.join(selects, sql` union all `)}`.execute(db)).rows;
}

/** The listed words in a range. */
export const listedRange: TermRange = (db, lower, upper, lengths) =>
  wordRange(db, ['catalog_terms'], lower, upper, lengths);

/** A prefix's listed words, up to `max` + 1 (the caller tells "more than `max`" by the count). */
export async function listedPrefixWords(
  db: Db,
  lower: string,
  upper: string,
  max: number,
): Promise<TermRow[]> {
  return (
    await sql<TermRow>`select term, doc from catalog_terms where term >= ${lower} and term < ${upper}
      limit ${max + 1}`.execute(db)
  ).rows;
}

/** Whether an import has listed the catalog's words (`catalog_terms` holds any). */
export async function anyWordListed(db: Db): Promise<boolean> {
  const row = await db.selectFrom('catalog_terms').select('term').limit(1).executeTakeFirst();
  return row !== undefined;
}

let refreshes = 0;

/**
 * How many times this process refreshed the word list: what a process remembers of the list (services/
 * search/listed-words.ts) is dropped when the count moves, as it was when the refresh dropped it itself.
 */
export const wordListRefreshes = (): number => refreshes;

/**
 * What search plans with, refreshed at the end of an import: the catalog's words and their counts
 * (one pass over the full-text index), and on PostgreSQL the planner's statistics of the catalog,
 * which a bulk load leaves stale until autovacuum comes by (or for good, where it is off), and its
 * GIN indexes' pending entries, merged.
 */
export async function refreshSearchStatistics(store: Store): Promise<void> {
  if (store.dialect === 'sqlite') {
    // An import leaves the catalog's full-text index in many segments (one per batch, merged only in
    // part), and every full-text query looks each word up in every segment: merged into one, a search's
    // catalog match cost 10.6 µs of CPU where it cost 36 (goodbooks-10k, the search-dev words; bench/
    // runs/2026-12-02-search-cpu.md). Rows, ranks and order stay the same. Later writes add small
    // segments, which FTS5's automerge keeps few until the next import merges them all again.
    await sql`insert into catalog_fts(catalog_fts) values ('optimize')`.execute(store.db);
  }
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
  refreshes += 1;
}
