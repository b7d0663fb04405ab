import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. The operator's affiliate tags set in the admin area,
// one per destination and storefront ('' for the destination's own store, else the ISO country of a
// storefront), and on each click the storefront it went to and whose tag it carried.
export async function affiliateTagsMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ref = dialect === 'sqlite' ? 'integer' : 'bigint';
  await db.schema
    .createTable('affiliate_tags')
    .addColumn('destination_id', ref, (col) =>
      col.notNull().references('destinations.id').onDelete('cascade'),
    )
    .addColumn('country', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('tag', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .addPrimaryKeyConstraint('affiliate_tags_pk', ['destination_id', 'country'])
    .execute();
  // '' for the destination's own store, else the storefront's country; null on clicks made before.
  await db.schema.alterTable('clicks').addColumn('storefront', 'text').execute();
  // 'operator', 'partner' or 'none': whose tag the redirect carried; null on clicks made before.
  await db.schema.alterTable('clicks').addColumn('tag_kind', 'text').execute();
}
