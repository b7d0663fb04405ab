import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. In a catalog of millions most entries are unrated
// (an Open Library dump carries no popularity), and PostgreSQL must read a match's row to learn its
// popularity: a common word's matches, fetched to find the most popular, took a second. The rated
// entries get a full-text index of their own, so a query finds every rated match without reading
// the unrated ones (search bounds those: store/search.ts). Unrated rows cost this index nothing.
export async function searchPopularPostgresMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') return;
  await sql
    .raw(
      'create index catalog_entries_fts_rated on catalog_entries using gin (search_tsv) where popularity > 0',
    )
    .execute(db);
}
