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

// PostgreSQL SQLSTATE classes and codes that mean "the database cannot be reached now", not "this query
// is wrong": connection exceptions (08), operator intervention (57P01-57P03), too many connections,
// and a database that no longer exists or accepts no connections.
const PG_UNAVAILABLE = /^(08|57P0[1-3]$|53300$|3D000$)/;
const NODE_UNAVAILABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN|IOERR)/;
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|not currently accepting connections|Connection refused/i;

/**
 * Whether a failed query failed because the database is unreachable (down, restarting, failing over,
 * the connection cut) rather than because of the query: the request may be tried again later (503).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as Error & { code?: unknown }).code;
    if (typeof code === 'string') {
      if (PG_UNAVAILABLE.test(code) || NODE_UNAVAILABLE.has(code) || SQLITE_UNAVAILABLE.test(code))
        return true;
      if (code === '55000' && UNAVAILABLE_MESSAGE.test(current.message)) return true;
    }
    if (UNAVAILABLE_MESSAGE.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
