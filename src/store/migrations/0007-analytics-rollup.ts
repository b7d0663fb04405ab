import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. A monthly roll-up next to the daily one, so a year of
// clicks by book sums a dozen rows per book instead of 365, and a lower bound of what is rolled up, so
// existing clicks can be back-filled backwards in the background while recent days are already counted.
export async function analyticsRollupMigration(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('click_monthly')
    .addColumn('dimension', 'text', (col) => col.notNull())
    .addColumn('month', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('clicks', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('click_monthly_pk', ['dimension', 'month', 'key'])
    .execute();
  await db.schema.alterTable('click_rollup_state').addColumn('rolled_from', 'text').execute();
  // The daily rows of 0005 have no monthly counterpart: start over, the background back-fill rebuilds both.
  await sql`delete from click_daily`.execute(db);
  await sql`update click_rollup_state set rolled_until = null, rolled_from = null`.execute(db);
}
