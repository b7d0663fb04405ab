import { CompiledQuery } from 'kysely';
import { getOrAdd } from '../domain/memo.js';
import type { Db } from './schema.js';

/** SQL texts by dialect (a database's adapter, which its transactions share) and key. */
const texts = new WeakMap<object, Map<string, string>>();

/**
 * The SQL text `compile` builds, made once per dialect and key. Kysely's query tree for a many-row
 * insert costs milliseconds (a 9,000-value catalog batch, a 2,000-value search-log flush), paid on
 * every statement although only the row count changes the text: key it by what changes it.
 */
export function compiledOnce(db: Db, key: string, compile: () => string): string {
  const adapter = db.getExecutor().adapter;
  return getOrAdd(
    getOrAdd(texts, adapter, () => new Map<string, string>()),
    key,
    compile,
  );
}

/** The event loop's next turn: other requests are read and answered before the promise resolves. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Inserts `rows` with statements of at most `perStatement` rows each, in the transaction `trx`, and
 * lets the event loop take a turn between two statements. better-sqlite3 runs a statement
 * synchronously and Kysely's awaits between statements are only microtasks, so a 1,000-click batch
 * held the loop about 5 ms in one piece, and every request that arrived meanwhile waited for all of
 * it: the `/go/` tail (bench/runs/2026-12-03-run-30.md). Between two statements now, requests that
 * need no database are answered; queries wait for the connection, which the transaction holds, as
 * they waited before. The transaction is still one: all of the rows are written or none.
 */
export async function insertInTurns<Row>(
  trx: Db,
  rows: readonly Row[],
  perStatement: number,
  sqlFor: (count: number) => string,
  values: (row: Row) => unknown[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += perStatement) {
    if (start > 0) await nextTurn();
    const chunk = rows.slice(start, start + perStatement);
    await trx.executeQuery(CompiledQuery.raw(sqlFor(chunk.length), chunk.flatMap(values)));
  }
}
