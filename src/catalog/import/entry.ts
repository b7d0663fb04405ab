import type { Isbn } from '../../domain/isbn.js';
import { matchKey } from '../../domain/text.js';
import type { NewCatalogEntryRow } from '../../store/schema.js';
import type { BookFormat } from '../types.js';

/** Everything a parser knows about one row, before it becomes a database row. */
export interface EntryFields {
  source: string;
  isbn: Isbn | null;
  /** The row's id in its source, used as the key when there is no ISBN (`gutenberg:1342`). */
  sourceId?: string | null;
  title: string;
  subtitle?: string | null;
  authors: readonly string[];
  publishedDate?: string | null;
  publisher?: string | null;
  coverUrl?: string | null;
  language?: string | null;
  format?: BookFormat | null;
  pages?: number | null;
  description?: string | null;
  identifiers?: Readonly<Record<string, string | null | undefined>>;
  popularity?: number | null;
}

/** Drops empty identifier values so the stored JSON only says what is known. */
function compactIdentifiers(identifiers: EntryFields['identifiers']): Record<string, string> {
  const result: Record<string, string> = {};
  if (!identifiers) return result;
  for (const scheme in identifiers) {
    const value = identifiers[scheme];
    if (value) result[scheme] = value;
  }
  return result;
}

/** The one place that turns parsed fields into a `catalog_entries` row (keys, JSON, match key). */
export function catalogEntry(fields: EntryFields, now: string): NewCatalogEntryRow | null {
  const key = fields.isbn
    ? `isbn:${fields.isbn.isbn13}`
    : fields.sourceId
      ? `${fields.source}:${fields.sourceId}`
      : null;
  if (!key) return null;
  return {
    entry_key: key,
    source: fields.source,
    isbn13: fields.isbn?.isbn13 ?? null,
    isbn10: fields.isbn?.isbn10 ?? null,
    title: fields.title,
    subtitle: fields.subtitle ?? null,
    authors: JSON.stringify(fields.authors),
    published_date: fields.publishedDate ?? null,
    publisher: fields.publisher ?? null,
    cover_url: fields.coverUrl ?? null,
    language: fields.language ?? null,
    format: fields.format ?? null,
    pages: fields.pages ?? null,
    description: fields.description ?? null,
    identifiers: JSON.stringify(compactIdentifiers(fields.identifiers)),
    match_key: matchKey(fields.title, fields.authors),
    popularity: fields.popularity ?? 0,
    updated_at: now,
  };
}
