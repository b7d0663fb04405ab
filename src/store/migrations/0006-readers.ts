import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: never imports live model code. Readers' features: lists (made by readers without an
// account, or ingested from partners), saved-books events, and access codes that unlock destinations.

function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
    : table.addColumn('id', 'bigserial', (col) => col.primaryKey());
}

const notNull = (col: ColumnDefinitionBuilder) => col.notNull();
const text = (fallback: string) => (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(fallback);
const int = (fallback: number) => (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(fallback);

export async function readersMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ref = dialect === 'sqlite' ? 'integer' : 'bigint';

  await withId(db.schema.createTable('lists'), dialect)
    .addColumn('kind', 'text', notNull) // reader | ingest | admin
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    // SHA-256 of the reader's edit token; null for lists only the operator or an ingest key may change.
    .addColumn('edit_token_hash', 'text')
    .addColumn('source', 'text')
    .addColumn('list_date', 'text')
    .addColumn('destination_slug', 'text')
    .addColumn('is_featured', 'integer', int(0))
    // source+name+date of an ingested list: a re-sent list replaces the old one, never duplicates it.
    .addColumn('ingest_key', 'text', (col) => col.unique())
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('lists_edit_token_hash').on('lists').column('edit_token_hash').execute();
  await db.schema.createIndex('lists_featured').on('lists').columns(['is_featured', 'updated_at']).execute();

  await db.schema
    .createTable('list_items')
    .addColumn('list_id', ref, (col) => col.notNull().references('lists.id').onDelete('cascade'))
    .addColumn('book_id', ref, (col) => col.notNull().references('books.id').onDelete('cascade'))
    .addColumn('position', 'integer', notNull)
    .addColumn('rank', 'integer')
    .addColumn('created_at', 'text', notNull)
    .addPrimaryKeyConstraint('list_items_pk', ['list_id', 'book_id'])
    .execute();
  await db.schema.createIndex('list_items_book').on('list_items').column('book_id').execute();

  // No foreign keys: events are an append-only log that must outlive the books they mention.
  await withId(db.schema.createTable('saved_events'), dialect)
    .addColumn('event_type', 'text', notNull)
    .addColumn('collection_size', 'integer', notNull)
    .addColumn('book_slug', 'text')
    .addColumn('view_mode', 'text')
    .addColumn('client_token', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('saved_events_created_at').on('saved_events').column('created_at').execute();

  await withId(db.schema.createTable('access_codes'), dialect)
    .addColumn('display_name', 'text', text(''))
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('description', 'text', text(''))
    .addColumn('cookie_ttl_hours', 'integer', int(24))
    .addColumn('is_active', 'integer', int(1))
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();

  await db.schema
    .createTable('access_code_destinations')
    .addColumn('access_code_id', ref, (col) =>
      col.notNull().references('access_codes.id').onDelete('cascade'),
    )
    .addColumn('destination_id', ref, (col) =>
      col.notNull().references('destinations.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('access_code_destinations_pk', ['access_code_id', 'destination_id'])
    .execute();
}
