import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  type PostgresCursor,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryResult,
  type SqliteDatabase,
  SqliteDialect,
  type SqliteStatement,
} from 'kysely';
import pg from 'pg';
import { markDatabaseError } from './errors.js';
import { preparedStatementFailure, StatementNames } from './pg-statements.js';
import type { Database, Db } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** The one place that knows which database is behind Kysely. */
export interface Store {
  db: Db;
  dialect: Dialect;
  /**
   * The better-sqlite3 connection behind `db` on SQLite (undefined on PostgreSQL), for hot paths that
   * need a statement of their own. (Kysely's queries reuse prepared statements by SQL text: see
   * `reusingStatements`.)
   * Use it only inside a Kysely transaction or where Kysely is idle: it is the same connection.
   */
  sqlite?: SQLite.Database;
  /** The connection pool behind `db` on PostgreSQL, for bulk loads that need one connection (COPY). */
  pgPool?: pg.Pool;
  close(): Promise<void>;
}

// PostgreSQL returns BIGINT (count(*), bigserial) as strings by default; our ids and counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

export function dialectOf(databaseUrl: string): Dialect {
  return databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

function openSqlite(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SQLite(path);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return sqlite;
}

/**
 * Sets numeric connection settings (pragmas) for a phase of work on SQLite; returns the function that
 * puts back the values they had. The connection is the store's own, so a phase never leaks its
 * settings into what runs after it.
 */
export function sqliteSettings(
  sqlite: SQLite.Database,
  settings: Readonly<Record<string, number>>,
): () => void {
  const previous = Object.keys(settings).map(
    (name) => [name, Number(sqlite.pragma(name, { simple: true }))] as const,
  );
  for (const [name, value] of Object.entries(settings)) sqlite.pragma(`${name} = ${value}`);
  return () => {
    for (const [name, value] of previous) sqlite.pragma(`${name} = ${value}`);
  };
}

/** Distinct SQL texts whose statements are kept (query shapes; an `in (…)` list of each length is one). */
const STATEMENTS_KEPT = 500;
/**
 * Longer SQL texts are prepared each time, never kept: they are the long `in (…)` lists of bulk work
 * (an import's batch of 5,000 keys), whose lengths seldom repeat, and whose compiled programs weigh
 * hundreds of kilobytes each: 500 of them would hold a re-import's memory for nothing.
 */
const LONGEST_KEPT = 8_000;

/**
 * A reader statement whose rows are built here from the arrays SQLite gives (better-sqlite3's raw
 * mode): better-sqlite3 builds each row object through V8's API a property at a time, which for the
 * 19 columns of a search's catalog entries cost half as much again as this. Rows are the same
 * objects: one property per column name, in column order, a repeated name keeping its last value.
 * Only for a statement whose columns are spelled out: a `*` widens after a schema change, which
 * SQLite applies to kept statements by itself (see `needsNamedRows`).
 */
function rowsFromArrays(statement: SQLite.Statement): SqliteStatement {
  const names = statement.columns().map((column) => column.name);
  const width = names.length;
  statement.raw(true);
  const toRow = (values: unknown[]): Record<string, unknown> => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < width; i++) row[names[i] as string] = values[i];
    return row;
  };
  return {
    reader: true,
    all(parameters) {
      const rows = statement.all(parameters) as unknown[][];
      const objects = new Array<Record<string, unknown>>(rows.length);
      for (let i = 0; i < rows.length; i++) objects[i] = toRow(rows[i] as unknown[]);
      return objects;
    },
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters)) yield toRow(values as unknown[]);
    },
  };
}

/** Whether a statement keeps better-sqlite3's own row objects: a writer, or columns that may change (`*`). */
const needsNamedRows = (statement: SQLite.Statement, sql: string) => !statement.reader || sql.includes('*');

/**
 * The connection as Kysely's SQLite driver sees it, keeping prepared statements by SQL text: the driver
 * prepares every query anew, and preparing costs about as much as running a small indexed query. The
 * most recently used texts are kept. A statement still being iterated (a streamed query) is busy, so
 * the same text then gets a fresh one. SQLite recompiles a kept statement itself after a schema change.
 */
export function reusingStatements(sqlite: SQLite.Database, kept = STATEMENTS_KEPT): SqliteDatabase {
  const statements = new Map<string, { statement: SQLite.Statement; driven: SqliteStatement }>();
  const prepare = (sql: string) => {
    const statement = sqlite.prepare(sql);
    return { statement, driven: needsNamedRows(statement, sql) ? statement : rowsFromArrays(statement) };
  };
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      if (sql.length > LONGEST_KEPT) return prepare(sql).driven;
      const known = statements.get(sql);
      if (known && !known.statement.busy) {
        // Re-inserted so the Map's order is least recently used first.
        statements.delete(sql);
        statements.set(sql, known);
        return known.driven;
      }
      const fresh = prepare(sql);
      if (!known) {
        statements.set(sql, fresh);
        if (statements.size > kept) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
      }
      return fresh.driven;
    },
  };
}

/** What a store is opened on: a database URL, or the configuration's (config.ts) database settings. */
export interface StoreTarget {
  databaseUrl: string;
  /** PostgreSQL: statements prepared by name (pg-statements.ts); off behind a pooler that cannot keep them. */
  databasePreparedStatements?: boolean;
}

export function openStore(target: string | StoreTarget): Store {
  const { databaseUrl, databasePreparedStatements = true } =
    typeof target === 'string' ? { databaseUrl: target } : target;
  const dialect = dialectOf(databaseUrl);
  if (dialect === 'sqlite') {
    const sqlite = openSqlite(databaseUrl.slice('sqlite:'.length) || ':memory:');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }) });
    return { db, dialect, sqlite, close: () => db.destroy() };
  }
  // A bounded wait for a connection: with the database gone, a request answers 503 instead of hanging.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10, connectionTimeoutMillis: 5000 });
  // A connection the server closes (a restart, a failover, pg_terminate_backend) must not crash the
  // process. Without a listener, pg rethrows it as an uncaught 'error' event: the pool listens on idle
  // clients, and every client gets its own listener from birth, so one lost while checked out (inside a
  // transaction) only fails its query; the pool discards it on release and opens a new one.
  pool.on('error', (error) => console.error(`postgres: idle connection lost: ${error.message}`));
  pool.on('connect', (client) => {
    client.on('error', (error) => console.error(`postgres: connection lost: ${error.message}`));
    // No JIT compilation: the planner's blind estimate for a prefix word ("cress:*" → 50,000 rows of
    // 10M) crossed jit_above_cost, and compiling took 6–30 ms of a query that runs in 2 (bench/README).
    // A statement, not a startup option, which PgBouncer refuses; queued before the caller's first query.
    client
      .query('set jit = off')
      .catch((error: Error) => console.error(`postgres: set jit: ${error.message}`));
  });
  const names = databasePreparedStatements ? new StatementNames() : null;
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: databasePool(pool, names) }) });
  return { db, dialect, pgPool: pool, close: () => db.destroy() };
}

/**
 * The pool as Kysely sees it, marking every error of a connection or a query as the database's
 * (`isDatabaseUnavailable` believes only those): pg throws a lost connection's socket error as is,
 * with the same codes (ECONNRESET) as a client of ours hanging up.
 */
function databasePool(pool: pg.Pool, names: StatementNames | null): PostgresPool {
  return {
    connect: () =>
      pool.connect().then(
        (client) => new MarkingClient(client, names),
        (error: unknown) => Promise.reject(markDatabaseError(error)),
      ),
    end: () => pool.end(),
  };
}

/** A connection of the pool: its queries prepared by name where `names` gives one, its errors marked. */
class MarkingClient implements PostgresPoolClient {
  constructor(
    private readonly client: pg.PoolClient,
    private readonly names: StatementNames | null,
  ) {}

  query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(
    sql: string | PostgresCursor<R>,
    parameters: ReadonlyArray<unknown> = [],
  ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof sql !== 'string') {
      // A streamed query: pg runs the cursor it is given and hands the same object back.
      this.client.query(sql as unknown as pg.Submittable);
      return sql;
    }
    const values = [...parameters];
    const name = this.names?.nameOf(sql, values.length);
    const sent = this.send<R>(name === undefined ? { text: sql, values } : { name, text: sql, values });
    return sent.catch((error: unknown) => {
      const failure = name === undefined ? null : preparedStatementFailure(error);
      if (failure === null) return Promise.reject(markDatabaseError(error));
      if (failure === 'stale') this.names?.refuse(sql);
      else this.names?.stop();
      // Inside a transaction the refusal has aborted it, and the retry fails: the first error is the one to tell.
      return this.send<R>({ text: sql, values }).catch(() => Promise.reject(markDatabaseError(error)));
    });
  }

  private send<R>(query: pg.QueryConfig): Promise<PostgresQueryResult<R>> {
    // The rows are Kysely's to type, as when its driver is handed pg's own client.
    return this.client.query(query) as unknown as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    this.client.release();
  }
}

export function nowIso(): string {
  return new Date().toISOString();
}

/**
 * Runs `read`'s queries in one read transaction on SQLite, given a store whose `db` is that
 * transaction; on PostgreSQL, `read` gets the store itself (its queries may run side by side on the
 * pool). Each SQLite statement outside a transaction begins and ends a read transaction of its own,
 * two locking system calls on the WAL index, which in a search of ten statements cost more than some
 * of the statements. `read` must use only the store it is given: while it runs, the connection is
 * the transaction's, and a query on the outer `db` would wait for it forever.
 */
export function readTogether<T>(store: Store, read: (store: Store) => Promise<T>): Promise<T> {
  if (store.dialect !== 'sqlite') return read(store);
  return store.db.transaction().execute((trx) => read({ ...store, db: trx }));
}
