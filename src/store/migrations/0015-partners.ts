import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Partners (integrators who bring their own affiliate
// tags), the partner and placement (`src`) of each click, and page visits counted by audience.
export async function partnersMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ref = dialect === 'sqlite' ? 'integer' : 'bigint';
  await db.schema
    .createTable('partners')
    // The operator's chosen id, the value of `partner=` in links (`acme-books`).
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('contact', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('is_active', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('api_key_id', ref)
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('partner_tags')
    .addColumn('partner_id', 'text', (col) => col.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('destination_slug', 'text', (col) => col.notNull())
    // '' for the destination's own (default) storefront, else the ISO country of a storefront.
    .addColumn('country', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('tag', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('partner_tags_pk', ['partner_id', 'destination_slug', 'country'])
    .execute();

  await db.schema.alterTable('clicks').addColumn('partner_id', 'text').execute();
  await db.schema.alterTable('clicks').addColumn('src', 'text').execute();
  await db.schema.createIndex('clicks_partner').on('clicks').columns(['partner_id', 'created_at']).execute();

  // Book-page and short-link visits per day, by audience (reader, preview, bot) and placement.
  await db.schema
    .createTable('page_visits')
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('audience', 'text', (col) => col.notNull())
    .addColumn('src', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('visits', ref, (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('page_visits_pk', ['day', 'audience', 'src'])
    .execute();
}
