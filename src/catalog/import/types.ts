import type { NewCatalogEntryRow } from '../../store/schema.js';

export const IMPORT_FORMATS = ['openlibrary', 'csv', 'jsonl', 'gutenberg'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** What a parser knows beyond the row: every identifier (all values), and the keys a dump joins on. */
export interface EntryLinks {
  /**
   * Every identifier of the record, several values of a scheme included (`['oclc', '41333709']`); when
   * given, it is complete: the identifier index takes these instead of the entry's JSON.
   */
  identifiers?: Array<readonly [scheme: string, value: string]>;
  /** Open Library author keys (`OL23919A`), named by the authors dump. */
  authorKeys?: string[];
}

/**
 * What a format parser makes of one row: an entry to upsert, or the reason it was skipped. A dump's
 * delete or redirect record names the edition it removes in `removes`.
 */
export type ParseResult =
  | { ok: true; entry: NewCatalogEntryRow; links?: EntryLinks }
  | { ok: false; reason: SkipReason; removes?: string };

/** Machine-readable skip reasons, counted in the summary (`no_valid_isbn: 23`). */
export type SkipReason =
  | 'no_valid_isbn'
  | 'missing_title'
  | 'not_an_edition'
  | 'not_a_text'
  | 'invalid_json'
  | 'malformed_row'
  | 'not_a_book'
  | 'deleted'
  | 'redirected'
  | 'missing_name'
  | 'unexpected_type';

/** Fixed for the whole import so every parser builds entries the same way. */
export interface ParseContext {
  /** Open Library covers origin, without a trailing slash (OPENLIBRARY_COVERS_URL). */
  coversBaseUrl: string;
  /** One timestamp for every entry of a run, so a run is recognisable in `updated_at`. */
  now: string;
  /**
   * Keep Open Library editions without an ISBN, keyed by their edition id (`openlibrary:OL1M`); the
   * dumps import does, so identifiers such as OCLC or Goodreads still find them.
   */
  keepWithoutIsbn?: boolean;
}

export function skip(reason: SkipReason): ParseResult {
  return { ok: false, reason };
}

export function accept(entry: NewCatalogEntryRow, links?: EntryLinks): ParseResult {
  return links ? { ok: true, entry, links } : { ok: true, entry };
}

/** Raised for problems that stop an import before it starts; the CLI prints `message` and exits 1. */
export class ImportError extends Error {
  override name = 'ImportError';
  constructor(
    readonly code: 'file_not_found' | 'unknown_format' | 'format_mismatch' | 'unreadable',
    message: string,
  ) {
    super(message);
  }
}
