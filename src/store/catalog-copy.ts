import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import {
  type CatalogWriter,
  catalogWriter,
  type IdentifierPair,
  RETURNING,
  ROWS_PER_STATEMENT,
  upsertSql,
  type WriterOptions,
} from './catalog-import.js';
import { compiledOnce } from './compiled.js';
import type { Store } from './db.js';
import { type IdentifierRoute, PENDING_IDENTIFIERS } from './deferred-indexes.js';
import { type Database, type Db, ENTRY_COLUMNS, type NewCatalogEntryRow } from './schema.js';

// PostgreSQL's bulk path of the catalog importers: COPY text, the merge of loaded rows into the
// catalog, and a first import's rows copied straight into it (see `copyWriter`).

/** COPY rows into a table of the bulk session's connection, given as chunks of COPY text in UTF-8. */
export type CopyRows = (table: string, columns: readonly string[], text: readonly Buffer[]) => Promise<void>;

/** A value in COPY's text format: \N is null; backslash, tab, newline and return are escaped. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = String(value);
  return /[\\\t\n\r]/.test(text)
    ? text.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] ?? c)
    : text;
}

/** COPY text is kept and sent this many rows to a chunk: a 5,000-row statement is never one string. */
const COPY_CHUNK_ROWS = 250;

/**
 * COPY text appended a line at a time and kept as UTF-8 chunks of `COPY_CHUNK_ROWS` lines: encoded
 * as each chunk fills (as sending it would), the text waits for its statement outside the JavaScript
 * heap, not as strings and row objects that outlive young-generation collections.
 */
function copyTextBuffer() {
  let chunks: Buffer[] = [];
  let text = '';
  let lines = 0;
  return {
    line(line: string) {
      text += line;
      if (++lines === COPY_CHUNK_ROWS) {
        chunks.push(Buffer.from(text));
        text = '';
        lines = 0;
      }
    },
    take(): Buffer[] {
      if (text) chunks.push(Buffer.from(text));
      const taken = chunks;
      chunks = [];
      text = '';
      lines = 0;
      return taken;
    },
  };
}

/** An entry's line of COPY text, its columns in `ENTRY_COLUMNS` order. */
function entryLine(entry: NewCatalogEntryRow): string {
  let line = '';
  for (const column of ENTRY_COLUMNS) {
    if (column !== 'entry_key') line += '\t';
    line += copyText(entry[column]);
  }
  return `${line}\n`;
}

/** An entry's identifiers as lines of COPY text, each ending in `entry` (its key or its id). */
function identifierLines(
  buffer: ReturnType<typeof copyTextBuffer>,
  pairs: readonly IdentifierPair[],
  entry: string,
) {
  for (const [scheme, value] of pairs) buffer.line(`${copyText(scheme)}\t${copyText(value)}\t${entry}\n`);
}

const ENTRIES_LOAD = 'catalog_entries_load';
const IDENTIFIERS_LOAD = 'catalog_identifiers_keyed_load';

/**
 * PostgreSQL's bulk path: COPY the rows and their identifiers (keyed by entry key) into session-private
 * staging tables (temporary tables: never in the WAL), then one statement upserts the entries and
 * indexes their identifiers by the ids the upsert returns, without a round trip of ids to the client.
 */
async function copyMerge(
  db: Db,
  copy: CopyRows,
  loads: { entries: readonly Buffer[]; identifiers: readonly Buffer[] },
  route: IdentifierRoute,
) {
  await copy(ENTRIES_LOAD, ENTRY_COLUMNS, loads.entries);
  await copy(IDENTIFIERS_LOAD, ['scheme', 'value', 'entry_key'], loads.identifiers);
  // The planner, blind to the sizes of the upsert's output and of the load tables, joins them by sorting
  // both on the text key; hashing the entries instead took 127-135 ms a statement against 146-152 ms
  // (1M editions' first 50 s, bench/README). Only for this statement: the connection's others keep it.
  await db.executeQuery(CompiledQuery.raw('set enable_mergejoin = off', []));
  try {
    await db.executeQuery(CompiledQuery.raw(copyMergeSql(db, route), []));
  } finally {
    // After a failure inside a transaction the reset fails as well, and the rollback restores the setting.
    await db.executeQuery(CompiledQuery.raw('reset enable_mergejoin', [])).catch(() => undefined);
  }
  await db.executeQuery(CompiledQuery.raw(`truncate ${ENTRIES_LOAD}, ${IDENTIFIERS_LOAD}`, []));
}

/** The upsert of `columns` of the loaded entries into the catalog, returning ids and keys. */
function loadUpsertSql(db: Db, columns: readonly string[]): string {
  const single = upsertSql(db, 'postgres', 1);
  const list = columns.map((column) => `"${column}"`).join(', ');
  return `insert into "catalog_entries" (${list}) select ${list} from ${ENTRIES_LOAD}${single.slice(single.indexOf(' on conflict'))}`;
}

/**
 * The statement that upserts the loaded entries and indexes their loaded identifiers. While the
 * identifier key is down (`unkeyed`), an entry the upsert inserted (`xmax = 0`) has no identifier row
 * yet, so its rows are appended to the unkeyed index as they are; an entry it updated may have them
 * already, so its rows go to the pending table, merged without repeats when the key is back.
 */
function copyMergeSql(db: Db, route: IdentifierRoute): string {
  return compiledOnce(db, `catalog_entries:copy:${route}`, () => {
    const upsert = loadUpsertSql(db, ENTRY_COLUMNS);
    const keyed = `select l.scheme, l.value, u.id from ${IDENTIFIERS_LOAD} l join upserted u on u.entry_key = l.entry_key`;
    if (route !== 'unkeyed') {
      const into = route === 'pending' ? PENDING_IDENTIFIERS : 'catalog_identifiers';
      return `with upserted as (${upsert}) insert into ${into} (scheme, value, entry_id) ${keyed} on conflict do nothing`;
    }
    return `with upserted as (${upsert.replace(RETURNING, `${RETURNING}, xmax = 0 as fresh`)}),
      fresh as (insert into catalog_identifiers (scheme, value, entry_id) ${keyed} where u.fresh)
      insert into ${PENDING_IDENTIFIERS} (scheme, value, entry_id) ${keyed} where not u.fresh`;
  });
}

/** An entry's line of COPY text with its id first, for `DIRECT_COLUMNS`. */
function directLine(id: string, entry: NewCatalogEntryRow): string {
  return `${id}\t${entryLine(entry)}`;
}

const DIRECT_COLUMNS = ['id', ...ENTRY_COLUMNS] as const;
const DIRECT_IDENTIFIER_COLUMNS = ['scheme', 'value', 'entry_id'] as const;

/**
 * A first import's rows of keys it has certainly not written yet (`WriterOptions.written`) are copied
 * straight into the catalog with ids drawn ahead from its sequence, and their identifiers straight into
 * the unkeyed index: no load tables, no upsert and no join, about a third of the import backend's
 * time (100,000 editions: 2.1-2.5 s against 3.2-4.2 s, bench/README). A key the catalog holds all the
 * same (a provider's answer filed before the import, or a row a killed run committed) fails the copy
 * on the key's unique index: then the statement is undone to its savepoint and merged instead.
 */
async function copyDirect(
  db: Db,
  copy: CopyRows,
  loads: { entries: readonly Buffer[]; identifiers: readonly Buffer[] },
  route: IdentifierRoute,
) {
  const run = (text: string) => db.executeQuery(CompiledQuery.raw(text, []));
  if (route === 'unkeyed') {
    await run('savepoint direct_copy');
    try {
      await copy('catalog_entries', DIRECT_COLUMNS, loads.entries);
      await copy('catalog_identifiers', DIRECT_IDENTIFIER_COLUMNS, loads.identifiers);
      await run('release savepoint direct_copy');
      return;
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNIQUE_VIOLATION) throw error;
      await run('rollback to savepoint direct_copy');
      await run('release savepoint direct_copy');
    }
  }
  await copy(ENTRIES_LOAD, DIRECT_COLUMNS, loads.entries);
  await copy(IDENTIFIERS_LOAD, DIRECT_IDENTIFIER_COLUMNS, loads.identifiers);
  await run(directMergeSql(db, route));
  await run(`truncate ${ENTRIES_LOAD}, ${IDENTIFIERS_LOAD}`);
}

const UNIQUE_VIOLATION = '23505';

/**
 * The merge of rows loaded with ids of their own: inserted rows keep their given id, updated ones
 * their stored id, and the identifiers follow the given id to the stored one. They go to the pending
 * table while the identifier key is down (merged without repeats when it is back), else to the index.
 */
function directMergeSql(db: Db, route: IdentifierRoute): string {
  return compiledOnce(db, `catalog_entries:direct:${route === 'index' ? 'index' : 'pending'}`, () => {
    const into = route === 'index' ? 'catalog_identifiers' : PENDING_IDENTIFIERS;
    return `with upserted as (${loadUpsertSql(db, DIRECT_COLUMNS)}),
      stored as (select l.id as given, u.id from ${ENTRIES_LOAD} l join upserted u on u.entry_key = l.entry_key)
      insert into ${into} (scheme, value, entry_id)
      select i.scheme, i.value, s.id from ${IDENTIFIERS_LOAD} i join stored s on s.given = i.entry_id on conflict do nothing`;
  });
}

/** The name of the catalog's id sequence, for `drawIds`. */
async function idSequence(reads: Db): Promise<string> {
  const result = await reads.executeQuery<{ name: string }>(
    CompiledQuery.raw(`select pg_get_serial_sequence('catalog_entries', 'id') as name`, []),
  );
  return result.rows[0]?.name ?? 'catalog_entries_id_seq';
}

/**
 * `count` ids drawn from the catalog's sequence, as the text COPY takes. The sequence comes as a
 * parameter: named by `pg_get_serial_sequence` inside the statement, it was looked up for every id
 * (5,000 ids: 20.8-21.7 ms a draw against 4.5-6.6 ms, bench/README).
 */
async function drawIds(reads: Db, sequence: string, count: number): Promise<string[]> {
  const result = await reads.executeQuery<{ ids: string[] }>(
    CompiledQuery.raw('select array(select nextval($2::regclass)::text from generate_series(1, $1)) as ids', [
      count,
      sequence,
    ]),
  );
  return result.rows[0]?.ids ?? [];
}

/** The store an import's batches write to (see `openBulkSession`). */
export type BulkStore = Store & {
  copy?: CopyRows;
  /**
   * A connection beside the import's own, for reading rows committed before the import's current
   * transaction (PostgreSQL: the pool); absent where there is only the one (SQLite).
   */
  committedReads?: Db;
};

/**
 * Bulk writes on PostgreSQL need the COPY protocol on the connection the import's transactions run
 * on: this opens one connection, a Kysely bound to it and its staging tables. Elsewhere it is the store.
 */
export async function openBulkSession(store: Store): Promise<{ store: BulkStore; close(): Promise<void> }> {
  const pool = store.pgPool;
  if (store.dialect !== 'postgres' || !pool) return { store, close: async () => undefined };
  const client: pg.PoolClient = await pool.connect();
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: {
        connect: async () => ({
          query: ((text: string, parameters: unknown[]) => client.query(text, parameters)) as never,
          release: () => undefined,
        }),
        end: async () => undefined,
      },
    }),
  });
  // Each batch commits its rows and its progress together, so a commit lost to a server crash loses
  // both and the import resumes from the batch before: durability of each commit buys nothing here.
  await client.query('set synchronous_commit = off');
  const columns = ENTRY_COLUMNS.map((column) => `"${column}"`).join(', ');
  await client.query(
    `create temporary table if not exists ${ENTRIES_LOAD} as select "id", ${columns} from catalog_entries with no data`,
  );
  // Identifiers are keyed by entry key for the merge, by entry id for a direct copy's fallback.
  await client.query(
    `create temporary table if not exists ${IDENTIFIERS_LOAD} (scheme text, value text, entry_key text, entry_id bigint)`,
  );
  const copy: CopyRows = async (table, names, text) => {
    const stream = client.query(
      copyFrom(`copy ${table} (${names.map((n) => `"${n}"`).join(', ')}) from stdin`),
    );
    // A chunk at a time, with the stream's backpressure.
    await pipeline(Readable.from(text), stream);
  };
  return {
    // Reads of what earlier transactions committed go through the pool, on connections of their own.
    store: { ...store, db, copy, committedReads: store.db },
    close: async () => {
      await db.destroy();
      // The connection goes back to the pool: its next user commits durably again.
      const reset = await client.query('reset synchronous_commit').catch((error: unknown) => error);
      client.release(reset instanceof Error ? reset : undefined);
    },
  };
}

/**
 * PostgreSQL's bulk writer: each entry and its identifiers become COPY text as they are queued, and a
 * full statement's worth (5,000 entries) is loaded and merged (`copyMerge`) while the next one is
 * queued; a statement waits only for the one before it. Entries used to wait as objects until their
 * statement was written: across young-generation collections, which copied and promoted them, so
 * that the import's collector threads cost 44 s of CPU each at 10M editions (bench/README). In a first
 * import (`WriterOptions.written`, with `reads` to draw ids on), a statement's entries of new keys are
 * copied straight in (`copyDirect`) and the rest merged.
 */
function copyWriter(db: Db, copy: CopyRows, options: WriterOptions, reads: Db | undefined): CatalogWriter {
  const limit = ROWS_PER_STATEMENT.postgres;
  const merged = { entries: copyTextBuffer(), identifiers: copyTextBuffer() };
  const straight = { entries: copyTextBuffer(), identifiers: copyTextBuffer() };
  // Rows are copied straight in only with a key filter and a connection to draw their ids on.
  const direct = reads && options.written ? { reads, written: options.written } : undefined;
  let sequence: Promise<string> | undefined;
  // Ids drawn for this statement's direct rows, used in order.
  let ids: string[] = [];
  let nextId = 0;
  let keys = new Set<string>();
  // The statements sent, in order; a failure rejects every later one and reaches the caller.
  let writing: Promise<void> = Promise.resolve();
  const send = (): Promise<void> => {
    const before = writing;
    if (keys.size === 0) return before;
    const copied = { entries: straight.entries.take(), identifiers: straight.identifiers.take() };
    const loads = { entries: merged.entries.take(), identifiers: merged.identifiers.take() };
    const route = options.identifierRoute?.() ?? 'index';
    keys = new Set();
    ids = [];
    nextId = 0;
    writing = before.then(async () => {
      // One statement never holds a key twice, so the two halves cannot touch one row.
      if (copied.entries.length > 0) await copyDirect(db, copy, copied, route);
      if (loads.entries.length > 0) await copyMerge(db, copy, loads, route);
    });
    // Awaited by the next statement or by `flush`; until then a failure must not count as unhandled.
    writing.catch(() => undefined);
    return before;
  };
  const queueDirect = (entry: NewCatalogEntryRow, pairs: readonly IdentifierPair[], id: string) => {
    straight.entries.line(directLine(id, entry));
    identifierLines(straight.identifiers, pairs, id);
  };
  return {
    add(entry, pairs) {
      // A repeated key goes to the next statement, which the server runs after this one.
      const sent = keys.has(entry.entry_key) ? send() : undefined;
      keys.add(entry.entry_key);
      const full = () => (keys.size === limit ? send() : sent);
      if (direct && options.identifierRoute?.() === 'unkeyed' && !direct.written.add(entry.entry_key)) {
        const id = ids[nextId++];
        if (id !== undefined) {
          queueDirect(entry, pairs, id);
          return full();
        }
        // Ids for the rest of this statement, drawn while the one before is merged.
        sequence ??= idSequence(direct.reads);
        const drawing = sequence.then((name) => drawIds(direct.reads, name, limit - keys.size + 1));
        return Promise.all([sent, drawing]).then(([, drawn]) => {
          ids = drawn;
          nextId = 1;
          queueDirect(entry, pairs, drawn[0] ?? '');
          return keys.size === limit ? send() : undefined;
        });
      }
      merged.entries.line(entryLine(entry));
      identifierLines(merged.identifiers, pairs, copyText(entry.entry_key));
      return full();
    },
    async flush() {
      send();
      await writing;
    },
  };
}

/**
 * The writer of an import's batches: PostgreSQL's COPY writer where the bulk session has a COPY
 * connection (`openBulkSession`), else `catalogWriter`'s statements.
 */
export function bulkCatalogWriter(
  db: Db,
  store: Pick<BulkStore, 'dialect' | 'sqlite' | 'copy' | 'committedReads'>,
  options: WriterOptions = {},
): CatalogWriter {
  if (store.dialect === 'postgres' && store.copy)
    return copyWriter(db, store.copy, options, store.committedReads);
  return catalogWriter(db, store, options);
}
