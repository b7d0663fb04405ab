/** Formats a book can come in; the edition chooser prefers trade formats (SPEC 2.1). */
export const BOOK_FORMATS = [
  'hardcover',
  'paperback',
  'mass-market',
  'ebook',
  'audiobook',
  'large-print',
  'library-binding',
  'board-book',
  'other',
] as const;
export type BookFormat = (typeof BOOK_FORMATS)[number];

/**
 * Metadata about one edition as a source knows it. Every provider answers in this shape and the
 * chain merges several into one. `identifiers` maps a scheme to a value: asin, goodreads,
 * ol_edition, ol_work, google_volume, apple_books (an Apple Books ebook), apple_audiobook (an Apple
 * Books audiobook), gutenberg, ia (Internet Archive id),
 * standard_ebooks (path), librivox.
 */
export interface BookRecord {
  source: string;
  isbn13: string | null;
  isbn10: string | null;
  title: string;
  subtitle: string | null;
  authors: string[];
  publishedDate: string | null;
  publisher: string | null;
  coverUrl: string | null;
  language: string | null;
  format: BookFormat | null;
  pages: number | null;
  description: string | null;
  identifiers: Record<string, string>;
  /** Open Library work key or similar, to group editions. */
  workKey: string | null;
  /** Editions a search provider counts for the work (Open Library `edition_count`): how known it is. */
  editionCount?: number;
  /**
   * Every identifier the source listed for the edition, several values of a scheme included (an
   * edition's second OCLC number, its LCCN), under the identifier index's scheme names (`oclc`,
   * `isbn13`); `identifiers` keeps the first of each. For the identifier index only.
   */
  allIdentifiers?: ReadonlyArray<readonly [scheme: string, value: string]>;
  /**
   * The provider's own series of this volume when it says so (Google's `seriesInfo`): the series
   * id and this volume's number in it; the provider gives no series name. For search only.
   */
  providerSeries?: { id: string; number: number };
  /**
   * The year the work was first published, when the source says so for the work rather than the
   * edition (Open Library search's `first_publish_year`): a series' volumes come in this order.
   */
  firstPublishYear?: number;
}
