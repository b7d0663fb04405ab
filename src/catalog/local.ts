import type { Isbn } from '../domain/isbn.js';
import { parseJsonArray } from '../store/books.js';
import { catalogEntriesOfMatchKey, findCatalogEntryByIsbn13 } from '../store/catalog-entries.js';
import type { CatalogEntryRow, Db } from '../store/schema.js';
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

/** Identifier schemes that confirm a free public-domain copy of the work exists. */
const PUBLIC_DOMAIN_SOURCES = ['gutenberg', 'standard_ebooks', 'librivox'] as const;

/** The imported catalog: answers in milliseconds and is always asked first. */
export class LocalCatalogProvider implements MetadataProvider {
  readonly name = 'local';
  constructor(private readonly db: Db) {}

  async lookupIsbn(isbn: Isbn): Promise<BookRecord | null> {
    const row = await findCatalogEntryByIsbn13(this.db, isbn.isbn13);
    return row ? catalogEntryToRecord(row) : null;
  }

  /**
   * Public-domain copies of a work, confirmed by a catalogue entry (Gutenberg, Standard Ebooks,
   * LibriVox) with the same title/author key. Only such confirmations produce "read free" links.
   */
  async publicDomainIdentifiers(matchKey: string): Promise<Record<string, string>> {
    const rows = await catalogEntriesOfMatchKey(this.db, matchKey, PUBLIC_DOMAIN_SOURCES, 10);
    const found: Record<string, string> = {};
    for (const row of rows) {
      const identifiers = parseIdentifiers(row.identifiers);
      for (const scheme of PUBLIC_DOMAIN_SOURCES) {
        const value = identifiers[scheme];
        if (value && !found[scheme]) found[scheme] = value;
      }
    }
    return found;
  }
}
