import type { NewCatalogEntryRow } from '../../store/schema.js';

export const IMPORT_FORMATS = ['openlibrary', 'csv', 'jsonl', 'gutenberg'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** What a format parser makes of one row: an entry to upsert, or the reason it was skipped. */
export type ParseResult = { ok: true; entry: NewCatalogEntryRow } | { ok: false; reason: SkipReason };

/** Machine-readable skip reasons, counted in the summary (`no_valid_isbn: 23`). */
export type SkipReason =
  | 'no_valid_isbn'
  | 'missing_title'
  | 'not_an_edition'
  | 'not_a_text'
  | 'invalid_json'
  | 'malformed_row';

/** Fixed for the whole import so every parser builds entries the same way. */
export interface ParseContext {
  /** Open Library covers origin, without a trailing slash (OPENLIBRARY_COVERS_URL). */
  coversBaseUrl: string;
  /** One timestamp for every entry of a run, so a run is recognisable in `updated_at`. */
  now: string;
}

export function skip(reason: SkipReason): ParseResult {
  return { ok: false, reason };
}

export function accept(entry: NewCatalogEntryRow): ParseResult {
  return { ok: true, entry };
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
