import { compiledOnce, insertInTurns } from '../compiled.js';
import { nowIso } from '../db.js';
import type { Db, SearchTables } from '../schema.js';

/** The search log's tables: searches (and their batched insert), feedback, misses and votes. */

export type NewSearch = Omit<SearchTables['searches'], 'id' | 'created_at'>;

/** Logs one search and returns its id, the `sfid` result links carry. */
export async function logSearch(db: Db, search: NewSearch): Promise<number> {
  const row = await db
    .insertInto('searches')
    .values({ ...search, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function searchExists(db: Db, sfid: number): Promise<boolean> {
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
function searchInsertSql(db: Db, count: number): string {
  return compiledOnce(db, `searches:${count}`, () => {
    const blank = Object.fromEntries(SEARCH_COLUMNS.map((column) => [column, ''])) as unknown as LoggedSearch;
    return db
      .insertInto('searches')
      .values(Array.from({ length: count }, () => blank))
      .compile().sql;
  });
}

/** Writes logged searches in one transaction, several rows per statement, a turn of the event loop between two. */
export async function insertSearches(db: Db, rows: readonly LoggedSearch[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await insertInTurns(
      trx,
      rows,
      SEARCHES_PER_STATEMENT,
      (count) => searchInsertSql(trx, count),
      (row) => SEARCH_COLUMNS.map((column) => row[column] ?? null),
    );
  });
}

export type NewFeedback = Omit<SearchTables['search_feedback'], 'id' | 'created_at'>;
export type NewMiss = Omit<SearchTables['search_misses'], 'id' | 'created_at'>;

export async function logFeedback(db: Db, feedback: NewFeedback): Promise<void> {
  await db
    .insertInto('search_feedback')
    .values({ ...feedback, created_at: nowIso() })
    .execute();
}

export async function logMiss(db: Db, miss: NewMiss): Promise<void> {
  await db
    .insertInto('search_misses')
    .values({ ...miss, created_at: nowIso() })
    .execute();
}

export async function logVote(db: Db, sfid: number, feedback: 'positive' | 'negative'): Promise<void> {
  await db.insertInto('search_votes').values({ sfid, feedback, created_at: nowIso() }).execute();
}
