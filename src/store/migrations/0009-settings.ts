import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Values the service makes for itself once and then
// keeps (the cookie-signing secret when COOKIE_SECRET is not set), shared by every instance.
export async function settingsMigration(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('value', 'text', (col) => col.notNull())
    .execute();
}
