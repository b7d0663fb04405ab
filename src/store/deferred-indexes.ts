import { type Kysely, sql } from 'kysely';
import type { Dialect } from './db.js';
import type { Database } from './schema.js';

// A first full import into an empty catalog runs faster without the secondary and full-text indexes
// of `catalog_entries`: building them once at the end sorts the keys instead of inserting tens of
// millions of them at random. Their definitions are read from the database itself (whatever the
// migrations made them), kept in `settings` while they are down, and recreated from there, so an
// import killed in between finishes the job when it is resumed. Updates keep every index live.

const MARKER = 'import.deferred_catalog_indexes';
/** PostgreSQL's memory for building the deferred indexes (the server's, not the importer's). */
const BUILD_MEMORY = '512MB';

interface Deferred {
  /** Statements that recreate what was dropped, in order. */
  create: string[];
  /** SQLite full-text tables to rebuild from their content once the triggers are back. */
  rebuild: string[];
}

interface SchemaObject {
  type: string;
  name: string;
  sql: string;
}

async function sqliteObjects(db: Kysely<Database>): Promise<SchemaObject[]> {
  const result = await sql<SchemaObject>`select type, name, sql from sqlite_master
    where sql is not null and (
      (type = 'index' and tbl_name = 'catalog_entries' and sql not like '%unique%')
      or (type = 'index' and name = 'catalog_identifiers_entry')
      or (type = 'trigger' and tbl_name = 'catalog_entries'))`.execute(db);
  return result.rows;
}

async function postgresObjects(db: Kysely<Database>): Promise<SchemaObject[]> {
  const result = await sql<SchemaObject>`select 'index' as type, i.indexname as name, i.indexdef as sql
    from pg_indexes i join pg_class c on c.relname = i.indexname join pg_index x on x.indexrelid = c.oid
    where i.schemaname = current_schema() and not x.indisunique and not x.indisprimary
      and (i.tablename = 'catalog_entries' or i.indexname = 'catalog_identifiers_entry')`.execute(db);
  return result.rows;
}

/** Whether an earlier, interrupted first import left the indexes down. */
export async function catalogIndexesDeferred(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('settings').select('key').where('key', '=', MARKER).executeTakeFirst();
  return row !== undefined;
}

/** Drops the catalog's secondary and full-text indexes (and SQLite's search triggers), remembering them. */
export async function deferCatalogIndexes(db: Kysely<Database>, dialect: Dialect): Promise<void> {
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
    const deferred: Deferred = { create: objects.map((object) => object.sql), rebuild: [...rebuild] };
    await trx
      .insertInto('settings')
      .values({ key: MARKER, value: JSON.stringify(deferred) })
      .execute();
    for (const object of objects) {
      await sql
        .raw(`drop ${object.type === 'trigger' ? 'trigger' : 'index'} if exists "${object.name}"`)
        .execute(trx);
    }
  });
}

/** Recreates what `deferCatalogIndexes` dropped and refills the full-text tables; nothing if none is down. */
export async function restoreCatalogIndexes(db: Kysely<Database>, dialect: Dialect): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom('settings').select('value').where('key', '=', MARKER).executeTakeFirst();
    if (!row) return false;
    const deferred = JSON.parse(row.value) as Deferred;
    // Sorting tens of millions of keys in memory instead of in runs on disk: for this transaction only.
    if (dialect === 'postgres')
      await sql.raw(`set local maintenance_work_mem = '${BUILD_MEMORY}'`).execute(trx);
    for (const statement of deferred.create) await sql.raw(statement).execute(trx);
    for (const table of deferred.rebuild) {
      if (/^\w+$/.test(table))
        await sql.raw(`insert into ${table}(${table}) values ('rebuild')`).execute(trx);
    }
    await trx.deleteFrom('settings').where('key', '=', MARKER).execute();
    return true;
  });
}

/** Whether the catalog is empty: a first full import may defer its indexes. */
export async function catalogIsEmpty(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('catalog_entries').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}
