import type { Generated, Insertable, Kysely, Selectable, Updateable } from 'kysely';

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

/** Every word of the catalog's search index and how many entries hold it, as of the last import. */
export interface CatalogTermTable {
  term: string;
  doc: number;
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
  /** ISO 3166-1 codes, comma-separated; empty: the destination sells everywhere. */
  countries: string;
  created_at: string;
  updated_at: string;
}

/** A country storefront of a destination (amazon.co.uk for Amazon in GB), keyed by destination id. */
export interface DestinationStorefrontTable {
  id: Generated<number>;
  destination_id: number;
  country: string;
  base_url: string;
  url_template: string;
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

/** Admin area: migration 0005. */
export type AdminTables = {
  admin_users: {
    id: Generated<number>;
    email: string;
    password_hash: string;
    role: string;
    is_active: Generated<number>;
    failed_attempts: Generated<number>;
    locked_until: string | null;
    last_login_at: string | null;
    created_at: string;
    updated_at: string;
  };
  admin_sessions: {
    id: Generated<number>;
    token_hash: string;
    user_id: number;
    csrf_token: string;
    ip: string | null;
    user_agent: string | null;
    expires_at: string;
    created_at: string;
  };
  admin_login_attempts: {
    id: Generated<number>;
    ip: string;
    email: string;
    success: number;
    created_at: string;
  };
  /** Migration 0010: failed sign-ins per `account:<email>` and `ip:<address>` in a 15-minute window. */
  admin_login_throttle: { key: string; failures: number; window_started_at: string };
  audit_log: {
    id: Generated<number>;
    user_id: number | null;
    user_email: string;
    action: string;
    entity_type: string;
    entity_id: string;
    before_json: string | null;
    after_json: string | null;
    created_at: string;
  };
  click_daily: { day: string; dimension: string; key: string; clicks: number };
};

/** Search log, feedback, misses and pins: migrations 0003 and 0008. */
export type SearchTables = {
  searches: {
    id: Generated<number>;
    query: string;
    query_key: string;
    parsed_title: string | null;
    parsed_author: string | null;
    kind: string;
    result_count: number;
    top_book_key: string | null;
    source: string | null;
    channel: string;
    created_at: string;
  };
  search_feedback: {
    id: Generated<number>;
    query: string;
    parsed_title: string | null;
    parsed_author: string | null;
    result_count: number;
    clicked_position: number;
    clicked_book_id: number | null;
    clicked_score: number | null;
    clicked_relevance: number | null;
    top_results_json: string | null;
    source_sfid: number | null;
    created_at: string;
  };
  search_misses: {
    id: Generated<number>;
    query: string;
    result_count: number;
    sfid: number | null;
    details: string | null;
    created_at: string;
  };
  search_votes: { id: Generated<number>; sfid: number; feedback: string; created_at: string };
  search_pins: {
    id: Generated<number>;
    query_key: string;
    book_id: number;
    notes: string;
    created_at: string;
  };
};

/** Click roll-ups: migrations 0005 and 0007. */
export type RollupTables = {
  click_monthly: { dimension: string; month: string; key: string; clicks: number };
  click_rollup_state: { id: number; rolled_from: string | null; rolled_until: string | null };
};

export interface ApiKeyTable {
  id: Generated<number>;
  name: string;
  key_prefix: string;
  key_hash: string;
  /** JSON array of scope names (`ingest`). */
  scopes: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface ApiUsageTable {
  day: string;
  /** 0 for anonymous calls. */
  key_id: number;
  /** '' when the call sent no `source`. */
  source: string;
  route: string;
  count: number;
}

/** Every table in one type (lists, saved events and access codes add theirs by declaration merging). */
export interface Database extends AdminTables, SearchTables, RollupTables {
  catalog_entries: CatalogEntryTable;
  works: WorkTable;
  books: BookTable;
  book_identifiers: BookIdentifierTable;
  destinations: DestinationTable;
  destination_aliases: DestinationAliasTable;
  destination_storefronts: DestinationStorefrontTable;
  book_destination_links: BookDestinationLinkTable;
  link_overrides: LinkOverrideTable;
  clicks: ClickTable;
  provider_misses: ProviderMissTable;
  import_runs: ImportRunTable;
  catalog_identifiers: CatalogIdentifierTable;
  catalog_terms: CatalogTermTable;
  ol_authors: OlAuthorTable;
  ol_works: OlWorkTable;
  settings: SettingTable;
  api_keys: ApiKeyTable;
  api_usage: ApiUsageTable;
}

/**
 * The database handle (or a transaction: Kysely's `Transaction` is a `Kysely`) every repository takes
 * first. The one name for it in signatures: services and the catalog may not import `kysely`, so they
 * can only say `Db`, and store/ says the same so that a signature reads alike on both sides.
 */
export type Db = Kysely<Database>;

export type BookRow = Selectable<BookTable>;
export type NewBookRow = Insertable<BookTable>;
export type BookUpdate = Updateable<BookTable>;
export type CatalogEntryRow = Selectable<CatalogEntryTable>;
export type NewCatalogEntryRow = Insertable<CatalogEntryTable>;
export type DestinationRow = Selectable<DestinationTable>;
export type BookDestinationLinkRow = Selectable<BookDestinationLinkTable>;
export type LinkOverrideRow = Selectable<LinkOverrideTable>;

/**
 * Every written column of a catalog entry, in the order an import binds them and the parse worker packs
 * them: here, where the worker reads it without loading the database drivers.
 */
export const ENTRY_COLUMNS = [
  'entry_key',
  'source',
  'isbn13',
  'isbn10',
  'title',
  'subtitle',
  'authors',
  'published_date',
  'publisher',
  'cover_url',
  'language',
  'format',
  'pages',
  'description',
  'identifiers',
  'match_key',
  'popularity',
  'updated_at',
  'work_key',
  'work_title',
  'first_year',
  'source_modified',
] as const satisfies ReadonlyArray<keyof NewCatalogEntryRow>;
