import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. The Open Library staging tables are read by key, a
// few thousand keys a batch, for every edition an import joins. On SQLite a table keyed by text kept
// two B-trees, the key's index and the rowid table it points into, so each probe and each staged row
// went through both; keyed by their primary key alone (`without rowid`) they take one. Each table is
// made again from its own definition, rows staged by an earlier import kept. PostgreSQL keeps its
// tables: an index probe there reads the heap anyway.
export async function stagingWithoutRowidMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  for (const name of ['ol_authors', 'ol_works']) {
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master
      where type = 'table' and name = ${name}`.execute(db);
    const definition = rows[0]?.sql;
    if (!definition) throw new Error(`migration 0020: no table ${name}`);
    const keyed = `${name}_keyed`;
    // The same columns in the same order, so the rows copy across as they are.
    const create = definition.replace(/^create table\s+("?)\w+\1/i, `create table "${keyed}"`);
    await sql.raw(`${create} without rowid`).execute(db);
    await sql.raw(`insert into "${keyed}" select * from "${name}"`).execute(db);
    await sql.raw(`drop table "${name}"`).execute(db);
    await sql.raw(`alter table "${keyed}" rename to "${name}"`).execute(db);
  }
}
