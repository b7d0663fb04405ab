import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Admin accounts, their sessions, the audit trail,
// login attempts (per-IP limiting) and the daily click roll-up that keeps analytics fast.

function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
    : table.addColumn('id', 'bigserial', (col) => col.primaryKey());
}

export async function adminMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ref = dialect === 'sqlite' ? 'integer' : 'bigint';

  await withId(db.schema.createTable('admin_users'), dialect)
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull())
    .addColumn('is_active', 'integer', (col) => col.notNull().defaultTo(1))
    .addColumn('failed_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'text')
    .addColumn('last_login_at', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();

  // Only a SHA-256 of the session token is stored: a leaked table cannot be replayed as cookies.
  await withId(db.schema.createTable('admin_sessions'), dialect)
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('user_id', ref, (col) => col.notNull().references('admin_users.id').onDelete('cascade'))
    .addColumn('csrf_token', 'text', (col) => col.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('expires_at', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('admin_sessions_expires').on('admin_sessions').column('expires_at').execute();

  await withId(db.schema.createTable('admin_login_attempts'), dialect)
    .addColumn('ip', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('success', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('admin_login_attempts_ip')
    .on('admin_login_attempts')
    .columns(['ip', 'created_at'])
    .execute();

  // No foreign key to users: the trail must outlive a deleted account.
  await withId(db.schema.createTable('audit_log'), dialect)
    .addColumn('user_id', ref)
    .addColumn('user_email', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('entity_type', 'text', (col) => col.notNull())
    .addColumn('entity_id', 'text', (col) => col.notNull())
    .addColumn('before_json', 'text')
    .addColumn('after_json', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('audit_log_created_at').on('audit_log').column('created_at').execute();
  await db.schema
    .createIndex('audit_log_entity')
    .on('audit_log')
    .columns(['entity_type', 'entity_id'])
    .execute();

  // One row per day, dimension (total, destination, book, country, referrer) and key. Finished days
  // are rolled up once; the analytics page reads these plus the raw clicks of the last two days.
  await db.schema
    .createTable('click_daily')
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('dimension', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull())
    .addColumn('clicks', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('click_daily_pk', ['dimension', 'day', 'key'])
    .execute();
  await db.schema
    .createTable('click_rollup_state')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('rolled_until', 'text')
    .execute();
  await sql`insert into click_rollup_state (id, rolled_until) values (1, null)`.execute(db);
}
