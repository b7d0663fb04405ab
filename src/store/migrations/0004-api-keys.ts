import type { Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code, so it runs the same way forever.

/**
 * API keys (only a SHA-256 of each key is stored) and the aggregated usage counters of the JSON API.
 * `api_usage.key_id` is 0 for anonymous calls and `source` is '' when none was sent: NULL is never
 * equal to NULL in a unique constraint, and the counters are upserted on exactly that key.
 */
export async function apiKeysMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const bigint = dialect === 'sqlite' ? 'integer' : 'bigint';
  const table = db.schema.createTable('api_keys');
  await (dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
    : table.addColumn('id', 'bigserial', (col) => col.primaryKey())
  )
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('key_prefix', 'text', (col) => col.notNull())
    .addColumn('key_hash', 'text', (col) => col.notNull().unique())
    .addColumn('scopes', 'text', (col) => col.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_prefix').on('api_keys').column('key_prefix').execute();

  await db.schema
    .createTable('api_usage')
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('key_id', bigint, (col) => col.notNull().defaultTo(0))
    .addColumn('source', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('route', 'text', (col) => col.notNull())
    .addColumn('count', bigint, (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('api_usage_pk', ['day', 'key_id', 'source', 'route'])
    .execute();
  await db.schema.createIndex('api_usage_key_day').on('api_usage').columns(['key_id', 'day']).execute();
}
