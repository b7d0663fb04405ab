import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. The search indexes are kept in sync by the
// database itself (triggers, expression indexes), so importers and the book creator need not know them.

function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
    : table.addColumn('id', 'bigserial', (col) => col.primaryKey());
}

async function sqliteIndexes(db: Kysely<unknown>): Promise<void> {
  for (const table of ['catalog_entries', 'books'] as const) {
    const fts = table === 'books' ? 'books_fts' : 'catalog_fts';
    // External content: the index stores tokens only; rows stay in their table.
    await sql`create virtual table ${sql.id(fts)} using fts5(title, authors, content=${sql.lit(table)}, content_rowid='id', tokenize='unicode61 remove_diacritics 2')`.execute(
      db,
    );
    await sql`create virtual table ${sql.id(`${fts}_vocab`)} using fts5vocab(${sql.id(fts)}, 'row')`.execute(
      db,
    );
    await sql
      .raw(`create trigger ${fts}_ai after insert on ${table} begin
  insert into ${fts}(rowid, title, authors) values (new.id, new.title, new.authors);
end`)
      .execute(db);
    await sql
      .raw(`create trigger ${fts}_ad after delete on ${table} begin
  insert into ${fts}(${fts}, rowid, title, authors) values ('delete', old.id, old.title, old.authors);
end`)
      .execute(db);
    await sql
      .raw(`create trigger ${fts}_au after update of title, authors on ${table} begin
  insert into ${fts}(${fts}, rowid, title, authors) values ('delete', old.id, old.title, old.authors);
  insert into ${fts}(rowid, title, authors) values (new.id, new.title, new.authors);
end`)
      .execute(db);
    await sql.raw(`insert into ${fts}(${fts}) values ('rebuild')`).execute(db);
  }
}

/** Creates an extension when the user may; search still works without it, only less forgiving. */
async function tryExtension(db: Kysely<unknown>, name: 'unaccent' | 'pg_trgm'): Promise<string | null> {
  await sql`savepoint booklink_ext`.execute(db);
  try {
    await sql`create extension if not exists ${sql.id(name)}`.execute(db);
    await sql`release savepoint booklink_ext`.execute(db);
  } catch {
    await sql`rollback to savepoint booklink_ext`.execute(db);
    return null;
  }
  const row = await sql<{
    schema: string;
  }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = ${name}`.execute(db);
  return row.rows[0]?.schema ?? null;
}

async function postgresIndexes(db: Kysely<unknown>): Promise<void> {
  const unaccentSchema = await tryExtension(db, 'unaccent');
  const trgmSchema = await tryExtension(db, 'pg_trgm');
  // IMMUTABLE wrapper: unaccent() itself is only STABLE, and index expressions need IMMUTABLE.
  const unaccented = unaccentSchema
    ? `${unaccentSchema}.unaccent('${unaccentSchema}.unaccent'::regdictionary, coalesce(t, ''))`
    : `coalesce(t, '')`;
  await sql
    .raw(`create or replace function booklink_fold(t text) returns text
language sql immutable parallel safe
as $$ select btrim(regexp_replace(lower(${unaccented}), '[^[:alnum:]]+', ' ', 'g')) $$`)
    .execute(db);
  for (const table of ['catalog_entries', 'books'] as const) {
    // A stored tsvector: ranking reads it instead of re-tokenising every matching row.
    await sql
      .raw(`alter table ${table} add column search_tsv tsvector
generated always as (to_tsvector('simple'::regconfig, booklink_fold(title || ' ' || authors))) stored`)
      .execute(db);
    await sql.raw(`create index ${table}_fts on ${table} using gin (search_tsv)`).execute(db);
    if (trgmSchema) {
      await sql
        .raw(`create index ${table}_trgm on ${table}
using gin (booklink_fold(title || ' ' || authors) ${trgmSchema}.gin_trgm_ops)`)
        .execute(db);
    }
  }
}

async function searchTables(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ref = dialect === 'sqlite' ? 'integer' : 'bigint';
  await withId(db.schema.createTable('searches'), dialect)
    .addColumn('query', 'text', (col) => col.notNull())
    .addColumn('query_key', 'text', (col) => col.notNull())
    .addColumn('parsed_title', 'text')
    .addColumn('parsed_author', 'text')
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('result_count', 'integer', (col) => col.notNull())
    .addColumn('top_book_key', 'text')
    .addColumn('source', 'text')
    .addColumn('channel', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('searches_created_at').on('searches').column('created_at').execute();
  await db.schema.createIndex('searches_query_key').on('searches').column('query_key').execute();

  await withId(db.schema.createTable('search_feedback'), dialect)
    .addColumn('query', 'text', (col) => col.notNull())
    .addColumn('parsed_title', 'text')
    .addColumn('parsed_author', 'text')
    .addColumn('result_count', 'integer', (col) => col.notNull())
    .addColumn('clicked_position', 'integer', (col) => col.notNull())
    .addColumn('clicked_book_id', ref)
    .addColumn('clicked_score', 'integer')
    .addColumn('clicked_relevance', 'integer')
    .addColumn('top_results_json', 'text')
    .addColumn('source_sfid', ref)
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();

  await withId(db.schema.createTable('search_misses'), dialect)
    .addColumn('query', 'text', (col) => col.notNull())
    .addColumn('result_count', 'integer', (col) => col.notNull())
    .addColumn('sfid', ref)
    .addColumn('details', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('search_misses_created_at').on('search_misses').column('created_at').execute();

  await withId(db.schema.createTable('search_votes'), dialect)
    .addColumn('sfid', ref, (col) => col.notNull())
    .addColumn('feedback', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('search_votes_sfid').on('search_votes').column('sfid').execute();

  await withId(db.schema.createTable('search_pins'), dialect)
    .addColumn('query_key', 'text', (col) => col.notNull())
    .addColumn('book_id', ref, (col) => col.notNull().references('books.id').onDelete('cascade'))
    .addColumn('notes', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('search_pins_query_book', ['query_key', 'book_id'])
    .execute();
}

export async function searchMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await searchTables(db, dialect);
  if (dialect === 'sqlite') await sqliteIndexes(db);
  else await postgresIndexes(db);
}
