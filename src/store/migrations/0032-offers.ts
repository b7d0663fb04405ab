import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Offers (issue 47): what a store asks for a book in
// one country and whether a library copy can be borrowed, with when and where it was read; and one
// row per book, source and country saying when it was last read and who holds the lease to read it
// again (the claim several instances share, so each offer is asked for once).
export async function offersMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ref = dialect === 'sqlite' ? 'integer' : 'bigint';
  const real = dialect === 'sqlite' ? 'real' : 'double precision';
  await db.schema
    .createTable('book_offers')
    .addColumn('book_id', ref, (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('country', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('amount', real)
    .addColumn('currency', 'text')
    .addColumn('url', 'text')
    .addColumn('read_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('book_offers_pk', ['book_id', 'source', 'country', 'kind'])
    .execute();
  await db.schema
    .createTable('offer_reads')
    .addColumn('book_id', ref, (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('country', 'text', (col) => col.notNull())
    .addColumn('read_at', 'text')
    .addColumn('lease_until', ref, (col) => col.notNull().defaultTo(0))
    .addColumn('lease_owner', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('last_error', 'text')
    .addPrimaryKeyConstraint('offer_reads_pk', ['book_id', 'source', 'country'])
    .execute();
}
