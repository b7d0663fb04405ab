import type { BookRecord } from '../domain/book-record.js';
import type { Isbn } from '../domain/isbn.js';

export { BOOK_FORMATS, type BookFormat, type BookRecord } from '../domain/book-record.js';

export interface SearchQuery {
  text: string;
  title?: string;
  author?: string;
  limit: number;
  /** The reader's language (two letters), when known: the edition a provider shows is in it. */
  language?: string;
}

/** One source of book metadata. `search` is optional: not every source can search by text. */
export interface MetadataProvider {
  readonly name: string;
  lookupIsbn(isbn: Isbn, signal: AbortSignal): Promise<BookRecord | null>;
  search?(query: SearchQuery, signal: AbortSignal): Promise<BookRecord[]>;
}

export function emptyRecord(source: string, title: string): BookRecord {
  return {
    source,
    isbn13: null,
    isbn10: null,
    title,
    subtitle: null,
    authors: [],
    publishedDate: null,
    publisher: null,
    coverUrl: null,
    language: null,
    format: null,
    pages: null,
    description: null,
    identifiers: {},
    workKey: null,
  };
}
