import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. The Open Library staging tables are read by key, a
// few thousand keys a batch, for every edition an import joins. On SQLite a table keyed by text kept
// two B-trees, the key's index and the rowid table it points into, so each probe and each staged row
// went through both; keyed by their primary key alone (`without rowid`) they take one. Rows staged by
// an earlier import are kept. PostgreSQL keeps its tables: an index probe there reads the heap anyway.
const TABLES = [
  {
    name: 'ol_authors',
    names: 'author_key, name, last_modified',
    columns: 'author_key text primary key not null, name text not null, last_modified text',
  },
  {
    name: 'ol_works',
    names: 'work_key, title, first_year, author_keys, last_modified',
    columns:
      "work_key text primary key not null, title text, first_year integer, author_keys text not null default '', last_modified text",
  },
] as const;

export async function stagingWithoutRowidMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  for (const { name, names, columns } of TABLES) {
    await sql.raw(`create table ${name}_keyed (${columns}) without rowid`).execute(db);
    await sql.raw(`insert into ${name}_keyed (${names}) select ${names} from ${name}`).execute(db);
    await sql.raw(`drop table ${name}`).execute(db);
    await sql.raw(`alter table ${name}_keyed rename to ${name}`).execute(db);
  }
}
