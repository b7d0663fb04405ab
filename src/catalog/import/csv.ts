import { splitAuthors } from './authors.js';
import { catalogEntry } from './entry.js';
import { bookFormat, cleanText, coverUrl, firstIsbn, isoDate, languageCode, positiveInt } from './fields.js';
import { accept, type ParseContext, type ParseResult, skip } from './types.js';

/** Our field → header names that mean it, most trusted first (compared after `headerKey`). */
const ALIASES = {
  isbn13: ['isbn13', 'isbn_13', 'ean', 'ean13'],
  isbn10: ['isbn10', 'isbn_10'],
  isbn: ['isbn'],
  title: ['title', 'book_title', 'name'],
  originalTitle: ['original_title'],
  subtitle: ['subtitle'],
  authors: ['authors', 'author', 'author_name', 'author_names', 'authors_names', 'creator'],
  publisher: ['publisher', 'publishers'],
  date: [
    'published_date',
    'publication_date',
    'publish_date',
    'date_published',
    'pub_date',
    'publication_year',
    'year_published',
    'year',
    'original_publication_year',
  ],
  language: ['language', 'language_code', 'lang', 'languages'],
  cover: ['cover_url', 'image_url', 'cover', 'cover_image', 'thumbnail', 'image'],
  pages: ['pages', 'num_pages', 'number_of_pages', 'page_count'],
  format: ['format', 'binding', 'physical_format'],
  description: ['description', 'summary'],
  popularity: [
    'ratings_count',
    'popularity',
    'num_ratings',
    'work_ratings_count',
    'ratings',
    'rating_count',
    'number_of_ratings',
  ],
  rank: ['rank', 'popularity_rank', 'bestseller_rank', 'sales_rank'],
  goodreads: ['goodreads_book_id', 'goodreads_id'],
} as const;

type Field = keyof typeof ALIASES;
type Columns = Partial<Record<Field, number>>;

/**
 * A rank (1 the most popular) as a popularity on the scale of ratings counts: rank 1 weighs as a book
 * rated a million times, rank 1,000 as one rated a thousand times, so ranked and rated catalogs mix.
 */
const RANK_ONE_POPULARITY = 1_000_000;

export function popularityOfRank(rank: number | null): number | null {
  return rank === null ? null : Math.max(1, Math.round(RANK_ONE_POPULARITY / rank));
}

/** What an import tells its user about the ranking: which column gives the popularity, if any. */
export function describePopularity(header: readonly string[]): string {
  const columns = mapColumns(header);
  if (columns.popularity !== undefined) return `popularity from the "${header[columns.popularity]}" column`;
  if (columns.rank !== undefined)
    return `popularity from the "${header[columns.rank]}" column (1 the most popular)`;
  return `no popularity column (${[...ALIASES.popularity.slice(0, 2), ALIASES.rank[0]].join(', ')}…): entries are ranked by their words alone`;
}

/** "ISBN-13", "Language Code" and "language_code" all become "isbn_13" / "language_code". */
export function headerKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

export function mapColumns(header: readonly string[]): Columns {
  const keys = header.map(headerKey);
  const columns: Columns = {};
  for (const [field, aliases] of Object.entries(ALIASES) as [Field, readonly string[]][]) {
    const index = aliases.map((alias) => keys.indexOf(alias)).find((i) => i >= 0);
    if (index !== undefined) columns[field] = index;
  }
  return columns;
}

// Goodreads appends the series to the edition title: "The Hunger Games (The Hunger Games, #1)".
const SERIES_NOTE = /\s*\(([^()]*#\s*[\d.]+[^()]*)\)\s*$/;

export function splitSeries(title: string): { title: string; series: string | null } {
  const match = SERIES_NOTE.exec(title);
  if (!match || match.index === 0) return { title, series: null };
  return { title: title.slice(0, match.index).trim(), series: match[1]?.trim() ?? null };
}

/** Builds the row parser for one CSV header; the mapping is resolved once, not per row. */
export function csvRowParser(header: readonly string[], context: ParseContext) {
  const columns = mapColumns(header);
  return (record: readonly string[]): ParseResult => {
    const get = (field: Field) => {
      const index = columns[field];
      return index === undefined ? undefined : record[index];
    };
    const isbn = firstIsbn([get('isbn13'), get('isbn10'), get('isbn')]);
    if (!isbn) return skip('no_valid_isbn');
    const originalTitle = cleanText(get('originalTitle'));
    const rawTitle = cleanText(get('title')) ?? originalTitle;
    if (!rawTitle) return skip('missing_title');
    const { title, series } = splitSeries(rawTitle);
    const entry = catalogEntry(
      {
        source: 'csv',
        isbn,
        title,
        subtitle: cleanText(get('subtitle')),
        authors: splitAuthors(get('authors')),
        publishedDate: isoDate(get('date')),
        publisher: cleanText(get('publisher')),
        coverUrl: coverUrl(get('cover')),
        language: languageCode(get('language')),
        format: bookFormat(get('format')),
        pages: positiveInt(get('pages')),
        description: cleanText(get('description')),
        identifiers: {
          goodreads: cleanText(get('goodreads')),
          series,
          // Kept for search: readers look for "Philosopher's Stone" and find the US edition.
          original_title: originalTitle && originalTitle !== title ? originalTitle : null,
        },
        popularity: positiveInt(get('popularity')) ?? popularityOfRank(positiveInt(get('rank'))),
      },
      context.now,
    );
    return entry ? accept(entry) : skip('no_valid_isbn');
  };
}
