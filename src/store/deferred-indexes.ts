import { availableParallelism } from 'node:os';
import { sql } from 'kysely';
import { PROVIDER_SOURCE } from './catalog-identifiers.js';
import { type Dialect, type Store, sqliteSettings } from './db.js';
import type { Db } from './schema.js';

// A first full import into an empty catalog runs faster without the secondary and full-text indexes
// of `catalog_entries`: building them once at the end sorts the keys instead of inserting tens of
// millions of them at random. Their definitions are read from the database itself (whatever the
// migrations made them), kept in `settings` while they are down, and recreated from there, so an
// import killed in between finishes the job when it is resumed. Updates keep every index live.
//
// The identifier index is a table whose primary key is its only index: while the indexes are down,
// identifiers are appended to an unindexed pending table instead, and moved into the index in one
// sorted insert when the indexes are restored (or before the first explicit delete or a re-import's
// sweep, which need to look identifiers up). SQLite keeps the table's key; on PostgreSQL the key is
// dropped as well: rows of entries an import inserts go straight into the unkeyed table (they cannot
// be there already), only rows of entries written a second time go to the pending table, and the key
// is built once, sorted, before the pending rows are merged (200,000 editions: 5.2 s of server time
// for the sorted insert of 850,000 rows into the keyed index, against about 1 s for the key's build).

/** The `settings` key that remembers what a first import took down (read by tests too). */
export const DEFERRED_INDEXES_MARKER = 'import.deferred_catalog_indexes';
/**
 * What the restore of the deferred indexes tells as it goes (minutes at millions of entries): how
 * many steps it has, then each step's name and time as it ends. On PostgreSQL two steps run side by
 * side, so they may end in another order than they began.
 */
export interface RestoreProgress {
  begin(steps: number): void;
  step(name: string, elapsedMs: number): void;
}

const SILENT: RestoreProgress = { begin: () => undefined, step: () => undefined };

/** PostgreSQL's memory for building the deferred indexes (the server's, not the importer's). */
const BUILD_MEMORY = '512MB';

interface Deferred {
  /** Statements that recreate what was dropped, in order. */
  create: string[];
  /** SQLite full-text tables to rebuild from their content once the triggers are back. */
  rebuild: string[];
  /** Whether identifiers are written to the pending table (absent in markers of earlier versions). */
  identifiers?: boolean;
  /** PostgreSQL: the statement that adds back the identifier index's primary key, dropped while pending. */
  identifierKey?: string;
}

/**
 * Where an import writes identifier rows: into the index; into the pending table (a first import's
 * indexes are down); or, while PostgreSQL's identifier key is down too, rows of newly inserted entries
 * into the unkeyed index and only those of entries written again into the pending table.
 */
export type IdentifierRoute = 'index' | 'pending' | 'unkeyed';

/** Identifier rows of a first import, appended unindexed until `mergePendingIdentifiers`. */
export const PENDING_IDENTIFIERS = 'catalog_identifiers_pending';

async function readDeferred(db: Db): Promise<Deferred | null> {
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', DEFERRED_INDEXES_MARKER)
    .executeTakeFirst();
  return row ? (JSON.parse(row.value) as Deferred) : null;
}

async function writeDeferred(db: Db, deferred: Deferred): Promise<void> {
  await db
    .updateTable('settings')
    .set({ value: JSON.stringify(deferred) })
    .where('key', '=', DEFERRED_INDEXES_MARKER)
    .execute();
}

/** Where identifier rows go now (see `IdentifierRoute`). */
export async function identifierRoute(db: Db): Promise<IdentifierRoute> {
  const deferred = await readDeferred(db);
  if (deferred?.identifiers !== true) return 'index';
  return deferred.identifierKey ? 'unkeyed' : 'pending';
}

/**
 * Adds PostgreSQL's identifier key back. Rows written beside the import (a provider's answer filed
 * while the key was down) may repeat a row the import wrote: then the repeats are removed and the key
 * built again, in a savepoint so the failed build does not abort the caller's transaction.
 */
async function restoreIdentifierKey(db: Db, statement: string): Promise<void> {
  await sql.raw(`set local maintenance_work_mem = '${BUILD_MEMORY}'`).execute(db);
  await sql.raw('savepoint identifier_key').execute(db);
  try {
    await sql.raw(statement).execute(db);
    await sql.raw('release savepoint identifier_key').execute(db);
  } catch (error) {
    if ((error as { code?: unknown }).code !== '23505') throw error;
    await sql.raw('rollback to savepoint identifier_key').execute(db);
    await sql
      .raw(`delete from catalog_identifiers a using catalog_identifiers b
        where a.scheme = b.scheme and a.value = b.value and a.entry_id = b.entry_id and a.ctid > b.ctid`)
      .execute(db);
    await sql.raw(statement).execute(db);
  }
}

/**
 * Moves the pending identifiers into the identifier index, sorted (so the index is appended to, not
 * written at random) and without repeats; writers index live again. Runs inside the caller's transaction.
 */
export async function mergePendingIdentifiers(db: Db, dialect: Dialect): Promise<void> {
  const deferred = await readDeferred(db);
  if (!deferred?.identifiers) return;
  if (deferred.identifierKey) await restoreIdentifierKey(db, deferred.identifierKey);
  // Every pending row's entry exists: explicit deletes merge first, and the final sweep runs after.
  // Repeats are left to the key (`or ignore`, `do nothing`), where they arrive side by side: SQLite
  // deduplicating them first in a temporary B-tree cost more (846,630 rows: 1.5-1.6 s of CPU against 1.4-1.5).
  const select = `select scheme, value, entry_id from ${PENDING_IDENTIFIERS} order by 1, 2, 3`;
  if (dialect === 'postgres') await sql.raw(`set local work_mem = '${BUILD_MEMORY}'`).execute(db);
  await sql
    .raw(
      dialect === 'sqlite'
        ? `insert or ignore into catalog_identifiers (scheme, value, entry_id) ${select}`
        : `insert into catalog_identifiers (scheme, value, entry_id) ${select} on conflict do nothing`,
    )
    .execute(db);
  await sql.raw(`drop table ${PENDING_IDENTIFIERS}`).execute(db);
  const { identifierKey: _restored, ...rest } = deferred;
  await writeDeferred(db, { ...rest, identifiers: false });
}

interface SchemaObject {
  type: string;
  name: string;
  sql: string;
}

async function sqliteObjects(db: Db): Promise<SchemaObject[]> {
  const result = await sql<SchemaObject>`select type, name, sql from sqlite_master
    where sql is not null and (
      (type = 'index' and tbl_name = 'catalog_entries' and sql not like '%unique%')
      or (type = 'index' and name = 'catalog_identifiers_entry')
      or (type = 'trigger' and tbl_name = 'catalog_entries'))`.execute(db);
  return result.rows;
}

async function postgresObjects(db: Db): Promise<SchemaObject[]> {
  const result = await sql<SchemaObject>`select 'index' as type, i.indexname as name, i.indexdef as sql
    from pg_indexes i join pg_class c on c.relname = i.indexname join pg_index x on x.indexrelid = c.oid
    where i.schemaname = current_schema() and not x.indisunique and not x.indisprimary
      and (i.tablename = 'catalog_entries' or i.indexname = 'catalog_identifiers_entry')`.execute(db);
  return result.rows;
}

/** PostgreSQL: the identifier index's primary key as a statement that adds it back, if it has one. */
async function postgresIdentifierKey(db: Db): Promise<{ name: string; add: string } | null> {
  const result = await sql<{ name: string; definition: string }>`select conname as name,
      pg_get_constraintdef(oid) as definition from pg_constraint
    where conrelid = 'catalog_identifiers'::regclass and contype = 'p'`.execute(db);
  const key = result.rows[0];
  if (!key) return null;
  return {
    name: key.name,
    add: `alter table catalog_identifiers add constraint "${key.name}" ${key.definition}`,
  };
}

/** Whether an earlier, interrupted first import left the indexes down. */
export async function catalogIndexesDeferred(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('settings')
    .select('key')
    .where('key', '=', DEFERRED_INDEXES_MARKER)
    .executeTakeFirst();
  return row !== undefined;
}

/** Drops the catalog's secondary and full-text indexes (and SQLite's search triggers), remembering them. */
export async function deferCatalogIndexes(db: Db, dialect: Dialect): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (await catalogIndexesDeferred(trx)) return;
    const objects = dialect === 'sqlite' ? await sqliteObjects(trx) : await postgresObjects(trx);
    const rebuild = new Set<string>();
    for (const object of objects) {
      if (object.type === 'trigger') {
        for (const match of object.sql.matchAll(/insert\s+into\s+(\w+)\s*\(\s*\1\s*,/gi))
          rebuild.add(match[1] ?? '');
      }
    }
    const key = dialect === 'postgres' ? await postgresIdentifierKey(trx) : null;
    const deferred: Deferred = {
      create: objects.map((object) => object.sql),
      rebuild: [...rebuild],
      identifiers: true,
      ...(key ? { identifierKey: key.add } : {}),
    };
    const ref = dialect === 'sqlite' ? 'integer' : 'bigint';
    await sql
      .raw(
        `create table if not exists ${PENDING_IDENTIFIERS} (scheme text not null, value text not null, entry_id ${ref} not null)`,
      )
      .execute(trx);
    await trx
      .insertInto('settings')
      .values({ key: DEFERRED_INDEXES_MARKER, value: JSON.stringify(deferred) })
      .execute();
    for (const object of objects) {
      await sql
        .raw(`drop ${object.type === 'trigger' ? 'trigger' : 'index'} if exists "${object.name}"`)
        .execute(trx);
    }
    if (key) await sql.raw(`alter table catalog_identifiers drop constraint "${key.name}"`).execute(trx);
  });
}

/**
 * SQLite's sorter threads for the restore: the identifier merge and the index builds sort tens of
 * millions of keys, and helper threads sort and merge the sorter's runs side by side. At 10M editions
 * the restore took 87 s against 114, peak RSS unchanged (bench/README): with the connection's 16 MB
 * page cache the threads' runs hold about 33 MB more, below the peak of the rows before. At 1M the
 * sorts are too small to tell. The connection gets its own setting back afterwards.
 */
const SORTER_THREADS = Math.min(availableParallelism(), 4);

/**
 * Recreates what `deferCatalogIndexes` dropped and refills the full-text tables; nothing if none is down.
 * On SQLite each step (the identifier merge, each index or trigger, each full-text rebuild) commits on
 * its own, and the commit's automatic (passive) checkpoint copies the write-ahead log back into the
 * database, so the next step starts on a short log unless a reader still holds it. In one transaction
 * the log grew to gigabytes (3.7 GB at 10M editions), and every page SQLite read, in the tables the
 * builds scan, was first looked for in that log, through one hash table per 4,096 frames: at 10M those
 * lookups were a tenth of the restore's time (three runs in one transaction: 154-181 s; two in steps:
 * 122 and 146 s; bench/README, sixteenth run). A kill keeps the steps already committed, and the rerun
 * skips them (`if not exists`; a finished merge leaves nothing pending; a rebuild is done again whole);
 * the marker goes last.
 */
export async function restoreCatalogIndexes(
  store: Pick<Store, 'db' | 'dialect' | 'sqlite'>,
  progress: RestoreProgress = SILENT,
): Promise<boolean> {
  if (store.dialect === 'postgres') return restorePostgresIndexes(store.db, progress);
  const deferred = await readDeferred(store.db);
  if (!deferred) return false;
  const rebuilds = deferred.rebuild.filter((table) => /^\w+$/.test(table));
  progress.begin(1 + deferred.create.length + rebuilds.length);
  const restoreSettings = store.sqlite
    ? sqliteSettings(store.sqlite, { threads: SORTER_THREADS })
    : () => undefined;
  const step = (name: string, work: (trx: Db) => Promise<unknown>) =>
    timed(progress, name, () => store.db.transaction().execute(work));
  try {
    await step(IDENTIFIER_MERGE, (trx) => mergePendingIdentifiers(trx, store.dialect));
    for (const statement of deferred.create)
      await step(objectName(statement), (trx) => sql.raw(ifNotExists(statement)).execute(trx));
    for (const table of rebuilds) {
      await step(`full-text table ${table}`, (trx) =>
        sql.raw(`insert into ${table}(${table}) values ('rebuild')`).execute(trx),
      );
    }
    await store.db.deleteFrom('settings').where('key', '=', DEFERRED_INDEXES_MARKER).execute();
    return true;
  } finally {
    restoreSettings();
  }
}

/** PostgreSQL index builds that run side by side at the end of a first import, and the memory of each. */
const PARALLEL_BUILDS = 2;
const PARALLEL_BUILD_MEMORY = '256MB';

/**
 * PostgreSQL builds each index in a transaction of its own, two at a time on two connections: a GIN
 * build keeps one core busy (the trigram index alone took 12-16 s of a 1,000,000-edition import) while
 * the server has more. The trigram index goes first, the identifier merge (its key's sorted build, 5 s
 * there) beside it, then the other GIN indexes, so the smaller builds fill in beside the longest. A
 * kill rolls back the builds it interrupts and keeps the finished ones, which the rerun skips (`if not
 * exists`; a finished merge leaves nothing pending); the marker goes once every build has committed.
 */
async function restorePostgresIndexes(db: Db, progress: RestoreProgress): Promise<boolean> {
  const deferred = await readDeferred(db);
  if (!deferred) return false;
  const rank = (statement: string) =>
    /\bgin_trgm_ops\b/i.test(statement) ? 0 : /\busing gin\b/i.test(statement) ? 1 : 2;
  const builds: Array<{ name: string; build: (trx: Db) => Promise<void> }> = deferred.create
    .map(ifNotExists)
    .sort((a, b) => rank(a) - rank(b))
    .map((statement) => ({
      name: objectName(statement),
      build: async (trx) => {
        await sql.raw(`set local maintenance_work_mem = '${PARALLEL_BUILD_MEMORY}'`).execute(trx);
        await sql.raw(statement).execute(trx);
      },
    }));
  // An index of the identifiers' table built before the merge would wait for it: the merge holds the table.
  builds.splice(1, 0, { name: IDENTIFIER_MERGE, build: (trx) => mergePendingIdentifiers(trx, 'postgres') });
  progress.begin(builds.length);
  const builder = async () => {
    for (;;) {
      const next = builds.shift();
      if (next === undefined) return;
      await timed(progress, next.name, () => db.transaction().execute(next.build));
    }
  };
  const results = await Promise.allSettled(Array.from({ length: PARALLEL_BUILDS }, builder));
  for (const result of results) if (result.status === 'rejected') throw result.reason;
  await db.deleteFrom('settings').where('key', '=', DEFERRED_INDEXES_MARKER).execute();
  return true;
}

/** The identifier merge's name in progress reports. */
const IDENTIFIER_MERGE = 'identifier index';

/** "index catalog_entries_isbn13" from the statement that creates it (the statement itself if it is no index or trigger). */
function objectName(statement: string): string {
  const match = /^\s*create\s+(?:unique\s+)?(index|trigger)\s+(?:if\s+not\s+exists\s+)?"?([\w.]+)/i.exec(
    statement,
  );
  return match ? `${match[1]?.toLowerCase()} ${match[2]}` : statement.slice(0, 60);
}

async function timed<T>(progress: RestoreProgress, name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  progress.step(name, performance.now() - started);
  return result;
}

/** An index or trigger definition as read from the database, made to skip one that already exists. */
function ifNotExists(statement: string): string {
  return statement.replace(
    /^\s*create\s+(unique\s+)?(index|trigger)\s+(?!if\s+not\s+exists\b)/i,
    (head) => `${head}if not exists `,
  );
}

/**
 * Whether the catalog holds no imported entry (providers' answers filed for the books readers made do
 * not count): a first full import may defer its indexes.
 */
export async function catalogIsEmpty(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('catalog_entries')
    .select('id')
    .where('source', '<>', PROVIDER_SOURCE)
    .limit(1)
    .executeTakeFirst();
  return row === undefined;
}
