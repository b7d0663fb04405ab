import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Importers keep a title's series note
// ("The Hunger Games, #2") and the original title in `identifiers`; readers type both
// ("hunger games 2", "philosopher's stone"), so the catalog's search index now holds them too.

const SQLITE_SERIES = `case when json_valid(identifiers) then
  coalesce(json_extract(identifiers, '$.series'), '') || ' ' || coalesce(json_extract(identifiers, '$.original_title'), '')
  else '' end`;

/** The same text for a trigger's `new.` or `old.` row. */
const seriesOf = (row: 'new' | 'old') => SQLITE_SERIES.replaceAll('identifiers', `${row}.identifiers`);

/** The SQLite search index's triggers and tables, dropped before it is built again (0016 too). */
export const DROP_SEARCH_INDEX = [
  'drop trigger if exists catalog_fts_ai',
  'drop trigger if exists catalog_fts_ad',
  'drop trigger if exists catalog_fts_au',
  'drop table if exists catalog_fts_vocab',
  'drop table if exists catalog_fts',
];

async function sqliteIndex(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    ...DROP_SEARCH_INDEX,
    // External content read through a view, so a 'rebuild' sees the same text the triggers index.
    `create view catalog_search_text as select id, title, authors, ${SQLITE_SERIES} as series from catalog_entries`,
    `create virtual table catalog_fts using fts5(title, authors, series, content='catalog_search_text',
      content_rowid='id', tokenize='unicode61 remove_diacritics 2')`,
    `create virtual table catalog_fts_vocab using fts5vocab(catalog_fts, 'row')`,
    `create trigger catalog_fts_ai after insert on catalog_entries begin
  insert into catalog_fts(rowid, title, authors, series) values (new.id, new.title, new.authors, ${seriesOf('new')});
end`,
    `create trigger catalog_fts_ad after delete on catalog_entries begin
  insert into catalog_fts(catalog_fts, rowid, title, authors, series)
    values ('delete', old.id, old.title, old.authors, ${seriesOf('old')});
end`,
    `create trigger catalog_fts_au after update of title, authors, identifiers on catalog_entries begin
  insert into catalog_fts(catalog_fts, rowid, title, authors, series)
    values ('delete', old.id, old.title, old.authors, ${seriesOf('old')});
  insert into catalog_fts(rowid, title, authors, series) values (new.id, new.title, new.authors, ${seriesOf('new')});
end`,
    `insert into catalog_fts(catalog_fts) values ('rebuild')`,
  ]) {
    await sql.raw(statement).execute(db);
  }
}

const POSTGRES_SERIES = `coalesce((identifiers::jsonb) ->> 'series', '') || ' ' || coalesce((identifiers::jsonb) ->> 'original_title', '')`;

async function postgresIndex(db: Kysely<unknown>): Promise<void> {
  // Dropping the generated column drops its GIN index; both come back with the series text.
  await sql.raw('alter table catalog_entries drop column search_tsv').execute(db);
  await sql
    .raw(`alter table catalog_entries add column search_tsv tsvector
generated always as (to_tsvector('simple'::regconfig,
  booklink_fold(title || ' ' || authors || ' ' || ${POSTGRES_SERIES}))) stored`)
    .execute(db);
  await sql.raw('create index catalog_entries_fts on catalog_entries using gin (search_tsv)').execute(db);
}

export async function searchSeriesMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') await sqliteIndex(db);
  else await postgresIndex(db);
}
