import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Failed sign-in counters per account email and per
// client IP. Each attempt reserves a slot with one atomic upsert before the password is checked, so
// parallel attempts cannot all pass a "not locked yet" check (a counter in memory would not hold
// across instances; a count of past attempts is read before the slow password check).
export async function loginThrottleMigration(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('admin_login_throttle')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('window_started_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('admin_login_throttle_window')
    .on('admin_login_throttle')
    .column('window_started_at')
    .execute();
}
