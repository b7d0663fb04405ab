import { editionIdentifiers, type IdentifierPair, identifierIndexPairs } from '../domain/identifiers.js';
import type { Isbn } from '../domain/isbn.js';
import { parseJsonArray } from '../domain/json.js';
import { matchKey } from '../domain/text.js';
import { findCatalogEntryByIsbn13 } from '../store/catalog-entries.js';
import { catalogEntriesByIdentifier, PROVIDER_SOURCE } from '../store/catalog-identifiers.js';
import type { CatalogEntryRow, Db, NewCatalogEntryRow } from '../store/schema.js';
import { BOOK_FORMATS, type BookFormat, type BookRecord, type MetadataProvider } from './types.js';

function parseIdentifiers(text: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
    );
  } catch {
    return {};
  }
}

function asFormat(value: string | null): BookFormat | null {
  return value && (BOOK_FORMATS as readonly string[]).includes(value) ? (value as BookFormat) : null;
}

export function catalogEntryToRecord(row: CatalogEntryRow): BookRecord {
  const identifiers = parseIdentifiers(row.identifiers);
  return {
    source: `local:${row.source}`,
    isbn13: row.isbn13,
    isbn10: row.isbn10,
    title: row.title,
    subtitle: row.subtitle,
    authors: parseJsonArray(row.authors),
    publishedDate: row.published_date,
    publisher: row.publisher,
    coverUrl: row.cover_url,
    language: row.language,
    format: asFormat(row.format),
    pages: row.pages,
    description: row.description,
    identifiers,
    workKey: row.work_key ?? identifiers.ol_work ?? null,
  };
}

/** Whether a record is a remote provider's answer: not the local catalog's, not a saved book's. */
export function isProviderAnswer(record: BookRecord): boolean {
  return !record.source.startsWith('local:') && record.source !== 'book';
}

/** Schemes that key an ISBN-less answer's entry, in order of preference (any other comes after). */
const KEY_SCHEMES = [
  'ol_edition',
  'google_volume',
  'apple_books',
  'apple_audiobook',
  'goodreads',
  'librarything',
  'worldcat',
];

/**
 * The natural key of a provider answer's entry: the ISBN's (`isbn:…`, as every importer keys it), an
 * Open Library edition's (`openlibrary:OL…M`, as the dumps key editions without an ISBN), else
 * `provider:<scheme>:<value>` of its first edition identifier. Null when it names no edition.
 */
function providerEntryKey(record: BookRecord): string | null {
  if (record.isbn13) return `isbn:${record.isbn13}`;
  const pairs = editionIdentifiers(record.identifiers);
  const rank = (scheme: string) => {
    const index = KEY_SCHEMES.indexOf(scheme);
    return index < 0 ? KEY_SCHEMES.length : index;
  };
  const [first] = [...pairs].sort((a, b) => rank(a[0]) - rank(b[0]) || a[0].localeCompare(b[0]));
  if (!first) return null;
  return first[0] === 'ol_edition' ? `openlibrary:${first[1]}` : `provider:${first[0]}:${first[1]}`;
}

/**
 * A provider's answer as a catalog entry (source `provider`) and the pairs the identifier index gets
 * for it, or null when the answer names no edition to key it by.
 */
export function providerAnswerEntry(
  record: BookRecord,
  now: string,
): { entry: NewCatalogEntryRow; identifiers: IdentifierPair[] } | null {
  const key = providerEntryKey(record);
  if (!key || !record.title) return null;
  const entry: NewCatalogEntryRow = {
    entry_key: key,
    source: PROVIDER_SOURCE,
    isbn13: record.isbn13,
    isbn10: record.isbn10,
    title: record.title,
    subtitle: record.subtitle,
    authors: JSON.stringify(record.authors),
    published_date: record.publishedDate,
    publisher: record.publisher,
    cover_url: record.coverUrl,
    language: record.language,
    format: record.format,
    pages: record.pages,
    description: record.description,
    identifiers: JSON.stringify(record.identifiers),
    match_key: matchKey(record.title, record.authors),
    popularity: 0,
    updated_at: now,
    work_key: record.workKey,
  };
  return { entry, identifiers: identifierIndexPairs(record) };
}

/** The imported catalog: answers in milliseconds and is always asked first. */
export class LocalCatalogProvider implements MetadataProvider {
  readonly name = 'local';
  constructor(private readonly db: Db) {}

  /**
   * The entry of an ISBN: its own column first, then the identifier index, which also holds the
   * further ISBNs an edition lists (a dump's second `isbn_13`, a provider's answer).
   */
  async lookupIsbn(isbn: Isbn): Promise<BookRecord | null> {
    const own = await findCatalogEntryByIsbn13(this.db, isbn.isbn13);
    if (own) return catalogEntryToRecord(own);
    const [listed] = await catalogEntriesByIdentifier(this.db, 'isbn13', isbn.isbn13, 1);
    return listed ? { ...catalogEntryToRecord(listed), isbn13: isbn.isbn13, isbn10: isbn.isbn10 } : null;
  }
}
