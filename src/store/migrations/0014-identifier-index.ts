import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code.
//
// 1. `catalog_identifiers`: one indexed row per (scheme, value, catalog entry), so resolving a store
//    identifier (OCLC, Goodreads, ASIN, …) is an index probe instead of a scan of the JSON column.
// 2. Columns the Open Library dumps fill: the work (key, title, first publication year) and the
//    source record's `last_modified`, which a monthly re-import compares to skip unchanged editions.
// 3. Staging tables for the authors and works dumps: compact keyed rows the editions are joined to.

/** JSON keys of `catalog_entries.identifiers` that are notes, not identifiers. */
const NOT_IDENTIFIERS = "('series', 'original_title', 'ol_authors')";

async function backfillSqlite(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`insert or ignore into catalog_identifiers (scheme, value, entry_id)
select j.key, j.value, c.id from catalog_entries c, json_each(c.identifiers) j
where json_valid(c.identifiers) and j.type = 'text' and j.value <> '' and j.key not in ${NOT_IDENTIFIERS}`)
    .execute(db);
}

async function backfillPostgres(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`insert into catalog_identifiers (scheme, value, entry_id)
select j.key, j.value, c.id from catalog_entries c
cross join lateral jsonb_each_text(case when c.identifiers ~ '^\\s*\\{' then c.identifiers::jsonb else '{}'::jsonb end) j
where j.value is not null and j.value <> '' and j.key not in ${NOT_IDENTIFIERS}
on conflict do nothing`)
    .execute(db);
}

export async function identifierIndexMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ref = dialect === 'sqlite' ? 'integer' : 'bigint';
  let table = db.schema
    .createTable('catalog_identifiers')
    .addColumn('scheme', 'text', (col) => col.notNull())
    .addColumn('value', 'text', (col) => col.notNull())
    .addColumn('entry_id', ref, (col) => col.notNull())
    .addPrimaryKeyConstraint('catalog_identifiers_pk', ['scheme', 'value', 'entry_id']);
  // The primary key is the lookup index; a rowid beside it would only be a second copy.
  if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
  await table.execute();
  await db.schema
    .createIndex('catalog_identifiers_entry')
    .on('catalog_identifiers')
    .column('entry_id')
    .execute();

  for (const column of ['work_key', 'work_title', 'source_modified'] as const) {
    await db.schema.alterTable('catalog_entries').addColumn(column, 'text').execute();
  }
  await db.schema.alterTable('catalog_entries').addColumn('first_year', 'integer').execute();
  await db.schema.alterTable('import_runs').addColumn('started_at', 'text').execute();

  await createOpenLibraryStaging(db);
  await backfillCatalogIdentifiers(db, dialect);
}

/** The Open Library staging tables as this migration makes them (0020 rebuilds them on SQLite). */
export async function createOpenLibraryStaging(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ol_authors')
    .addColumn('author_key', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('last_modified', 'text')
    .execute();
  await db.schema
    .createTable('ol_works')
    .addColumn('work_key', 'text', (col) => col.primaryKey())
    .addColumn('title', 'text')
    .addColumn('first_year', 'integer')
    .addColumn('author_keys', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('last_modified', 'text')
    .execute();
}

/** Indexes every entry already imported: its ISBN columns and the identifiers in its JSON. */
export async function backfillCatalogIdentifiers(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  for (const column of ['isbn13', 'isbn10'] as const) {
    await sql
      .raw(`insert into catalog_identifiers (scheme, value, entry_id)
select '${column}', ${column}, id from catalog_entries where ${column} is not null
on conflict do nothing`)
      .execute(db);
  }
  if (dialect === 'sqlite') await backfillSqlite(db);
  else await backfillPostgres(db);
}
