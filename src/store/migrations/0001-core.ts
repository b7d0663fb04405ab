import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Dialect } from '../db.js';

// Self-contained: this file never imports live model code, so it runs the same way forever.

function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
    : table.addColumn('id', 'bigserial', (col) => col.primaryKey());
}

const notNull = (col: ColumnDefinitionBuilder) => col.notNull();
const flag = (value: 0 | 1) => (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(value);
const text = (fallback: string) => (col: ColumnDefinitionBuilder) => col.notNull().defaultTo(fallback);
const bigint = (dialect: Dialect) => (dialect === 'sqlite' ? 'integer' : 'bigint');

export async function coreMigration(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const ref = bigint(dialect);

  await withId(db.schema.createTable('catalog_entries'), dialect)
    .addColumn('entry_key', 'text', (col) => col.notNull().unique())
    .addColumn('source', 'text', notNull)
    .addColumn('isbn13', 'text')
    .addColumn('isbn10', 'text')
    .addColumn('title', 'text', notNull)
    .addColumn('subtitle', 'text')
    .addColumn('authors', 'text', text('[]'))
    .addColumn('published_date', 'text')
    .addColumn('publisher', 'text')
    .addColumn('cover_url', 'text')
    .addColumn('language', 'text')
    .addColumn('format', 'text')
    .addColumn('pages', 'integer')
    .addColumn('description', 'text')
    .addColumn('identifiers', 'text', text('{}'))
    .addColumn('match_key', 'text')
    .addColumn('popularity', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('catalog_entries_isbn13').on('catalog_entries').column('isbn13').execute();
  await db.schema.createIndex('catalog_entries_isbn10').on('catalog_entries').column('isbn10').execute();
  await db.schema
    .createIndex('catalog_entries_match_key')
    .on('catalog_entries')
    .column('match_key')
    .execute();

  await withId(db.schema.createTable('works'), dialect)
    .addColumn('work_key', 'text', (col) => col.unique())
    .addColumn('title', 'text', notNull)
    .addColumn('canonical_book_id', ref)
    .addColumn('created_at', 'text', notNull)
    .execute();

  await withId(db.schema.createTable('books'), dialect)
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('work_id', ref, (col) => col.references('works.id').onDelete('set null'))
    .addColumn('isbn13', 'text', (col) => col.unique())
    .addColumn('isbn10', 'text')
    .addColumn('title', 'text', notNull)
    .addColumn('subtitle', 'text')
    .addColumn('authors', 'text', text('[]'))
    .addColumn('cover_url', 'text')
    .addColumn('published_date', 'text')
    .addColumn('publisher', 'text')
    .addColumn('format', 'text')
    .addColumn('language', 'text')
    .addColumn('pages', 'integer')
    .addColumn('description', 'text')
    .addColumn('match_key', 'text')
    .addColumn('popularity', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('books_work_id').on('books').column('work_id').execute();
  await db.schema.createIndex('books_isbn10').on('books').column('isbn10').execute();
  await db.schema.createIndex('books_match_key').on('books').column('match_key').execute();

  await db.schema
    .createTable('book_identifiers')
    .addColumn('book_id', ref, (col) => col.notNull().references('books.id').onDelete('cascade'))
    .addColumn('scheme', 'text', notNull)
    .addColumn('value', 'text', notNull)
    .addPrimaryKeyConstraint('book_identifiers_pk', ['scheme', 'value'])
    .execute();
  await db.schema.createIndex('book_identifiers_book').on('book_identifiers').column('book_id').execute();

  await withId(db.schema.createTable('destinations'), dialect)
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('display_name', 'text', notNull)
    .addColumn('short_name', 'text', text(''))
    .addColumn('description', 'text', text(''))
    .addColumn('group_name', 'text', notNull)
    .addColumn('url_template', 'text', text(''))
    .addColumn('base_url', 'text', text(''))
    .addColumn('icon_url', 'text', text(''))
    .addColumn('brand_color', 'text', text(''))
    .addColumn('display_priority', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('is_active', 'integer', flag(1))
    .addColumn('is_public', 'integer', flag(1))
    .addColumn('affiliate_param', 'text', text(''))
    .addColumn('affiliate_tag', 'text', text(''))
    .addColumn('created_at', 'text', notNull)
    .addColumn('updated_at', 'text', notNull)
    .execute();

  await db.schema
    .createTable('destination_aliases')
    .addColumn('old_slug', 'text', (col) => col.primaryKey())
    .addColumn('destination_id', ref, (col) =>
      col.notNull().references('destinations.id').onDelete('cascade'),
    )
    .execute();

  await withId(db.schema.createTable('book_destination_links'), dialect)
    .addColumn('book_id', ref, (col) => col.notNull().references('books.id').onDelete('cascade'))
    .addColumn('destination_id', ref, (col) =>
      col.notNull().references('destinations.id').onDelete('cascade'),
    )
    .addColumn('url', 'text', text(''))
    .addColumn('label', 'text', text(''))
    .addColumn('tagline', 'text', text(''))
    .addColumn('is_featured', 'integer', flag(1))
    .addColumn('display_priority', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('active_from', 'text')
    .addColumn('active_until', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await db.schema
    .createIndex('book_destination_links_book')
    .on('book_destination_links')
    .column('book_id')
    .execute();

  await withId(db.schema.createTable('link_overrides'), dialect)
    .addColumn('book_id', ref, (col) => col.notNull().references('books.id').onDelete('cascade'))
    .addColumn('retailer_key', 'text', notNull)
    .addColumn('override_url', 'text', notNull)
    .addColumn('notes', 'text', text(''))
    .addColumn('created_at', 'text', notNull)
    .addUniqueConstraint('link_overrides_book_retailer', ['book_id', 'retailer_key'])
    .execute();

  // Clicks keep no foreign keys: they are written in batches off the request path and must never
  // fail because an operator deleted a destination a second earlier.
  await withId(db.schema.createTable('clicks'), dialect)
    .addColumn('book_id', ref, notNull)
    .addColumn('destination_id', ref, notNull)
    .addColumn('sfid', ref)
    .addColumn('country', 'text')
    .addColumn('referrer_host', 'text')
    .addColumn('created_at', 'text', notNull)
    .execute();
  await db.schema.createIndex('clicks_created_at').on('clicks').column('created_at').execute();
  await db.schema.createIndex('clicks_book').on('clicks').columns(['book_id', 'created_at']).execute();
  await db.schema
    .createIndex('clicks_destination')
    .on('clicks')
    .columns(['destination_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('provider_misses')
    .addColumn('isbn13', 'text', (col) => col.primaryKey())
    .addColumn('expires_at', 'text', notNull)
    .execute();

  await withId(db.schema.createTable('import_runs'), dialect)
    .addColumn('file_key', 'text', (col) => col.notNull().unique())
    .addColumn('format', 'text', notNull)
    .addColumn('rows_done', ref, (col) => col.notNull().defaultTo(0))
    .addColumn('bytes_done', ref, (col) => col.notNull().defaultTo(0))
    .addColumn('imported', ref, (col) => col.notNull().defaultTo(0))
    .addColumn('skipped', 'text', text('{}'))
    .addColumn('finished', 'integer', flag(0))
    .addColumn('updated_at', 'text', notNull)
    .execute();

  if (dialect === 'postgres') {
    // Case-insensitive lookups of titles for work matching; search indexes come with the search migration.
    await sql`create index books_lower_title on books (lower(title))`.execute(db);
  }
}
