import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types. Both dialects store booleans as 0/1 integers, JSON as text and timestamps as
 * ISO-8601 UTC text, so rows look the same whichever database is behind them.
 */
export interface CatalogEntryTable {
  id: Generated<number>;
  /** Natural key: `isbn:<isbn13>` or `<source>:<id>` for entries without an ISBN (Gutenberg). */
  entry_key: string;
  source: string;
  isbn13: string | null;
  isbn10: string | null;
  title: string;
  subtitle: string | null;
  /** JSON array of strings. */
  authors: string;
  published_date: string | null;
  publisher: string | null;
  cover_url: string | null;
  language: string | null;
  format: string | null;
  pages: number | null;
  description: string | null;
  /** JSON object: scheme → value (goodreads, ol_edition, ol_work, gutenberg, …). */
  identifiers: string;
  /** Normalised "title|first author surname", to match editions of one work across sources. */
  match_key: string | null;
  popularity: number;
  updated_at: string;
  /** Open Library work of the edition (`OL45883W`): groups editions. */
  work_key?: string | null;
  work_title?: string | null;
  /** The work's first publication year. */
  first_year?: number | null;
  /** The source record's own modification time (Open Library `last_modified`), for re-imports. */
  source_modified?: string | null;
}

/** The identifier index: one row per identifier a catalog entry carries. */
export interface CatalogIdentifierTable {
  scheme: string;
  value: string;
  entry_id: number;
}

/** Staging rows of the Open Library authors dump, joined into editions by key. */
export interface OlAuthorTable {
  author_key: string;
  name: string;
  last_modified: string | null;
}

/** Staging rows of the Open Library works dump. */
export interface OlWorkTable {
  work_key: string;
  title: string | null;
  first_year: number | null;
  /** Comma-separated author keys, for editions that name none themselves. */
  author_keys: string;
  last_modified: string | null;
}

export interface WorkTable {
  id: Generated<number>;
  work_key: string | null;
  title: string;
  canonical_book_id: number | null;
  created_at: string;
}

export interface BookTable {
  id: Generated<number>;
  slug: string;
  work_id: number | null;
  isbn13: string | null;
  isbn10: string | null;
  title: string;
  subtitle: string | null;
  authors: string;
  cover_url: string | null;
  published_date: string | null;
  publisher: string | null;
  format: string | null;
  language: string | null;
  pages: number | null;
  description: string | null;
  match_key: string | null;
  popularity: number;
  created_at: string;
  updated_at: string;
}

export interface BookIdentifierTable {
  book_id: number;
  scheme: string;
  value: string;
}

export interface DestinationTable {
  id: Generated<number>;
  slug: string;
  display_name: string;
  short_name: string;
  description: string;
  group_name: string;
  url_template: string;
  base_url: string;
  icon_url: string;
  brand_color: string;
  display_priority: number;
  is_active: number;
  is_public: number;
  affiliate_param: string;
  affiliate_tag: string;
  created_at: string;
  updated_at: string;
}

export interface DestinationAliasTable {
  old_slug: string;
  destination_id: number;
}

export interface BookDestinationLinkTable {
  id: Generated<number>;
  book_id: number;
  destination_id: number;
  url: string;
  label: string;
  tagline: string;
  is_featured: number;
  display_priority: number;
  active_from: string | null;
  active_until: string | null;
  created_at: string;
}

export interface LinkOverrideTable {
  id: Generated<number>;
  book_id: number;
  retailer_key: string;
  override_url: string;
  notes: string;
  created_at: string;
}

export interface ClickTable {
  id: Generated<number>;
  book_id: number;
  destination_id: number;
  sfid: number | null;
  country: string | null;
  referrer_host: string | null;
  created_at: string;
}

export interface ProviderMissTable {
  isbn13: string;
  expires_at: string;
}

export interface ImportRunTable {
  id: Generated<number>;
  file_key: string;
  format: string;
  rows_done: number;
  bytes_done: number;
  imported: number;
  skipped: string;
  finished: number;
  updated_at: string;
  /** When the file's first run began: every run of one file stamps entries with this time. */
  started_at?: string | null;
}

export interface SettingTable {
  key: string;
  value: string;
}

export interface Database {
  catalog_entries: CatalogEntryTable;
  works: WorkTable;
  books: BookTable;
  book_identifiers: BookIdentifierTable;
  destinations: DestinationTable;
  destination_aliases: DestinationAliasTable;
  book_destination_links: BookDestinationLinkTable;
  link_overrides: LinkOverrideTable;
  clicks: ClickTable;
  provider_misses: ProviderMissTable;
  import_runs: ImportRunTable;
  catalog_identifiers: CatalogIdentifierTable;
  ol_authors: OlAuthorTable;
  ol_works: OlWorkTable;
  settings: SettingTable;
}

export type BookRow = Selectable<BookTable>;
export type NewBookRow = Insertable<BookTable>;
export type BookUpdate = Updateable<BookTable>;
export type CatalogEntryRow = Selectable<CatalogEntryTable>;
export type NewCatalogEntryRow = Insertable<CatalogEntryTable>;
export type DestinationRow = Selectable<DestinationTable>;
export type BookDestinationLinkRow = Selectable<BookDestinationLinkTable>;
export type LinkOverrideRow = Selectable<LinkOverrideTable>;
