import SQLite from 'better-sqlite3';
import pg from 'pg';

/** Dialect-specific error shapes, recognised in one place. */
export function isUniqueViolation(error: unknown, column?: string): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: string }).code;
  const unique =
    code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!unique || !column) return unique;
  const detail = `${error.message} ${(error as Error & { constraint?: string; detail?: string }).constraint ?? ''} ${
    (error as Error & { detail?: string }).detail ?? ''
  }`;
  return detail.includes(column);
}

// PostgreSQL SQLSTATE classes and codes that mean "the database cannot serve this now", not "this query
// is wrong": connection exceptions (08), operator intervention (57P01-57P03), too many connections,
// a full disk (53100), a read-only transaction (a standby: 25006), and a database that no longer
// exists or accepts no connections.
const PG_UNAVAILABLE = /^(08|57P0[1-3]$|53[13]00$|25006$|3D000$)/;
const NODE_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
// A full disk (SQLITE_FULL) or a read-only file refuses writes until an operator acts; the reads go on.
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR|FULL|READONLY)/;
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|not currently accepting connections|Connection refused/i;

/**
 * The errors that came from the database: SQLite's, PostgreSQL's own (with an SQLSTATE), and whatever
 * the connection pool threw for the store (a refused or lost connection, a connect timeout), which
 * `databasePool` marks. A socket error of the client's own (its ECONNRESET) is none of these.
 */
const poolErrors = new WeakSet<Error>();

export function markDatabaseError(error: unknown): unknown {
  if (error instanceof Error) poolErrors.add(error);
  return error;
}

function fromDatabase(error: Error): boolean {
  return error instanceof SQLite.SqliteError || error instanceof pg.DatabaseError || poolErrors.has(error);
}

/**
 * Whether a failed query failed because the database is unreachable (down, restarting, failing over,
 * the connection cut) rather than because of the query: the request may be tried again later (503).
 * Only errors that came from the database count (see `fromDatabase`), at any depth of `cause`.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    if (fromDatabase(current) && unavailable(current)) return true;
    current = current.cause;
  }
  return false;
}

function unavailable(error: Error): boolean {
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string') {
    if (PG_UNAVAILABLE.test(code) || NODE_UNAVAILABLE.has(code) || SQLITE_UNAVAILABLE.test(code)) return true;
  }
  return UNAVAILABLE_MESSAGE.test(error.message);
}
