import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. The operator's logo, uploaded in the admin area and
// served from this origin; its content hash names it (the brand settings, in `settings`, say which
// one is current).
export async function brandLogosMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('brand_logos')
    .addColumn('hash', 'text', (col) => col.primaryKey())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('bytes', dialect === 'sqlite' ? 'blob' : 'bytea', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
}
