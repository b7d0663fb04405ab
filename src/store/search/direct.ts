import type SQLite from 'better-sqlite3';
import { getOrAdd } from '../../domain/memo.js';
import type { Store } from '../db.js';

/**
 * A search's hot reads on SQLite run as better-sqlite3 statements of their own, not through Kysely:
 * building, compiling and running a query through Kysely (its tree, its plugins, its connection
 * mutex, two promises) cost as much as the small indexed reads themselves. Measured on the
 * goodbooks-10k catalog and the search-dev queries (bench/runs/2026-12-02-search-cpu.md): eight such
 * statements a search, ~9 % of a search's CPU in Kysely. The SQL texts are the ones Kysely ran.
 */

/**
 * The SQLite connection when `store.db` is a Kysely transaction on it (`readTogether`): the
 * transaction holds the one connection, so no other query can run on it between our statements.
 * Null on PostgreSQL and outside a transaction, where the callers use Kysely as before.
 */
export function heldConnection(store: Store): SQLite.Database | null {
  return store.sqlite && store.db.isTransaction ? store.sqlite : null;
}

interface Reader {
  statement: SQLite.Statement;
  /** Column names, in order; null for a statement whose rows better-sqlite3 builds (`*`). */
  names: string[] | null;
}

/**
 * Prepared statements by SQL text, per connection. Each `in (…)` length is a text of its own, and a
 * search's lists are short (a few dozen at most), so few texts are seen; past READERS_KEPT they are
 * all dropped and prepared again. SQLite recompiles a kept statement itself after a schema change.
 */
const readers = new WeakMap<SQLite.Database, Map<string, Reader>>();
const READERS_KEPT = 300;

/** A `*` that stands for a table's columns (`select *`, `books.*`), not `count(*)`. */
const WIDENS = /[\s.,]\*/;

function reader(sqlite: SQLite.Database, text: string): Reader {
  const kept = getOrAdd(readers, sqlite, () => new Map<string, Reader>());
  return getOrAdd(kept, text, () => {
    const statement = sqlite.prepare(text);
    // A `*` widens after a schema change: better-sqlite3's own row objects follow it.
    const names = WIDENS.test(text) ? null : statement.columns().map((column) => column.name);
    if (names) statement.raw(true);
    if (kept.size >= READERS_KEPT) kept.clear();
    return { statement, names };
  });
}

/**
 * The rows of a read, as Kysely's SQLite driver gives them (one property per column, in column
 * order), built from the arrays SQLite gives (see `rowsFromArrays` in store/db.ts).
 */
export function directRows<T>(sqlite: SQLite.Database, text: string, parameters: readonly unknown[]): T[] {
  const { statement, names } = reader(sqlite, text);
  if (!names) return statement.all(...parameters) as T[];
  const rows = statement.all(...parameters) as unknown[][];
  const width = names.length;
  const objects = new Array<T>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const values = rows[i] as unknown[];
    const row: Record<string, unknown> = {};
    for (let j = 0; j < width; j++) row[names[j] as string] = values[j];
    objects[i] = row as T;
  }
  return objects;
}

/** The rows of a read as SQLite's arrays, for a caller that builds its own objects. */
export function directArrays(
  sqlite: SQLite.Database,
  text: string,
  parameters: readonly unknown[],
): { rows: unknown[][]; names: string[] } {
  const { statement, names } = reader(sqlite, text);
  if (!names) throw new Error('directArrays: a statement with spelled-out columns only');
  return { rows: statement.all(...parameters) as unknown[][], names };
}

/** `?, ?, ?` for `count` parameters (none for none: SQLite reads `in ()` as an empty list). */
export function placeholders(count: number): string {
  return count === 0 ? '' : `?${', ?'.repeat(count - 1)}`;
}

/**
 * A LIMIT written into the SQL text, not bound: SQLite hands a LIMIT to the query planner (a virtual
 * table such as FTS5 is told it), so binding it expires the statement and each run prepares it again.
 * A search's family read cost 12 µs with its LIMIT bound and 1.3 µs with it written in, its saved
 * books' full-text read 18 µs and 1.7 (goodbooks-10k, bench/runs/2026-12-02-search-cpu.md). Only
 * counts the code chose, never input: anything but a whole number is refused.
 */
export function limitText(count: number): string {
  if (!Number.isSafeInteger(count) || count < 0) throw new Error(`limitText: ${count} is not a row count`);
  return String(count);
}
