import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';
import { DROP_SEARCH_INDEX } from './0008-search-series.js';

// Self-contained: never imports live model code. On a catalog of millions, a common word matches
// hundreds of thousands of entries, and ordering all of them (by text rank or by popularity) took
// a second a query. Both databases can now read a word's matches most popular first and stop early:
// SQLite's full-text rows are keyed by popularity, then id (the key below, decoded in
// store/search.ts), and PostgreSQL gains an index in that order. SQLite also keeps the words of
// the index with their counts in a table of their own, refreshed by every import, for corrections.

/** A row's series note and original title, as migration 0008 indexed them; `row` is '', 'new.' or 'old.'. */
const SERIES = (row: string) => `case when json_valid(${row}identifiers) then
  coalesce(json_extract(${row}identifiers, '$.series'), '') || ' ' || coalesce(json_extract(${row}identifiers, '$.original_title'), '')
  else '' end`;

/**
 * The full-text row key: popularity (capped below 2^30) descending, then the entry id (below 2^32),
 * so that reading rows in key order reads the most popular first. The id is the key's low 32 bits.
 */
const KEY = (row: string) =>
  `(1073741823 - min(max(${row}popularity, 0), 1073741823)) * 4294967296 + ${row}id`;

async function sqliteIndex(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    ...DROP_SEARCH_INDEX,
    'drop view if exists catalog_search_text',
    // External content read through a view, so a 'rebuild' sees the same keys and text the triggers index.
    `create view catalog_search_text as select ${KEY('')} as search_key, title, authors,
      ${SERIES('')} as series from catalog_entries`,
    `create virtual table catalog_fts using fts5(title, authors, series, content='catalog_search_text',
      content_rowid='search_key', tokenize='unicode61 remove_diacritics 2')`,
    `create virtual table catalog_fts_vocab using fts5vocab(catalog_fts, 'row')`,
    `create trigger catalog_fts_ai after insert on catalog_entries begin
  insert into catalog_fts(rowid, title, authors, series) values (${KEY('new.')}, new.title, new.authors, ${SERIES('new.')});
end`,
    `create trigger catalog_fts_ad after delete on catalog_entries begin
  insert into catalog_fts(catalog_fts, rowid, title, authors, series)
    values ('delete', ${KEY('old.')}, old.title, old.authors, ${SERIES('old.')});
end`,
    `create trigger catalog_fts_au after update of title, authors, identifiers, popularity on catalog_entries begin
  insert into catalog_fts(catalog_fts, rowid, title, authors, series)
    values ('delete', ${KEY('old.')}, old.title, old.authors, ${SERIES('old.')});
  insert into catalog_fts(rowid, title, authors, series) values (${KEY('new.')}, new.title, new.authors, ${SERIES('new.')});
end`,
    `insert into catalog_fts(catalog_fts) values ('rebuild')`,
    // How many entries hold each word: reading these counts from the full-text index means reading every
    // matching row of every word in a range, which took 50 ms a correction on a catalog of millions.
    'create table catalog_terms (term text primary key, doc integer not null) without rowid',
    'insert into catalog_terms (term, doc) select term, doc from catalog_fts_vocab',
  ]) {
    await sql.raw(statement).execute(db);
  }
}

export async function searchByPopularityMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') await sqliteIndex(db);
  else
    await sql
      .raw('create index catalog_entries_popularity on catalog_entries (popularity desc, id)')
      .execute(db);
}
