import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. PostgreSQL gains the word list SQLite keeps since
// 0016: every word of the catalog's search index and how many entries hold it, refreshed by every
// import. Spelling corrections read it instead of a trigram scan of every title, which took seconds
// a query on a catalog of a million. Sorted bytewise, so a prefix is a range of the key.
export async function searchTermsPostgresMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  await sql
    .raw('create table catalog_terms (term text collate "C" primary key, doc integer not null)')
    .execute(db);
  await sql
    .raw(
      `insert into catalog_terms (term, doc) select word, ndoc from ts_stat('select search_tsv from catalog_entries')`,
    )
    .execute(db);
}
