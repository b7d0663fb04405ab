import { nameSlug, seriesPosition, slugWords } from '../domain/series.js';
import { foldText } from '../domain/text.js';
import type { Book } from '../store/books.js';
import type { Store } from '../store/db.js';
import {
  booksByAuthorWords,
  booksByIsbn13,
  booksInSeries,
  catalogEntriesByAuthorWords,
  catalogEntriesInSeries,
  clickCounts,
  popularCatalogEntries,
  type ShelfEntry,
  shelfNamesOfBooks,
} from '../store/shelves.js';

/**
 * Series and author pages. Volumes and books that have no page yet link to `/isbn/{isbn}` (created on a
 * reader's first visit, like every ISBN link) or, without an ISBN, to a search for them.
 */

export interface ShelfItem {
  title: string;
  authors: string[];
  coverUrl: string | null;
  isbn13: string | null;
  /** `/book/{slug}`, `/isbn/{isbn}` or `/search?q=…`. */
  href: string;
  /** Set when the book already has a page. */
  bookSlug: string | null;
}

export interface SeriesVolume extends ShelfItem {
  number: number | null;
}

export interface SeriesPage {
  name: string;
  slug: string;
  volumes: SeriesVolume[];
}

export interface AuthorPage {
  name: string;
  slug: string;
  /** Most popular first: reader clicks, then the catalog's popularity (ratings count), then title. */
  books: Array<ShelfItem & { clicks: number }>;
}

const AUTHOR_PAGE_LIMIT = 100;

function bookItem(book: Book): ShelfItem {
  return {
    title: book.title,
    authors: book.authors,
    coverUrl: book.coverUrl,
    isbn13: book.isbn13,
    href: `/book/${encodeURIComponent(book.slug)}`,
    bookSlug: book.slug,
  };
}

function entryItem(entry: ShelfEntry): ShelfItem {
  const query = [entry.title, entry.authors[0]].filter(Boolean).join(' ');
  return {
    title: entry.title,
    authors: entry.authors,
    coverUrl: entry.coverUrl,
    isbn13: entry.isbn13,
    href: entry.isbn13 ? `/isbn/${entry.isbn13}` : `/search?q=${encodeURIComponent(query)}`,
    bookSlug: null,
  };
}

/** One volume per number: a book with a page wins, then the most popular catalog edition. */
export async function loadSeriesPage(store: Store, slug: string): Promise<SeriesPage | null> {
  const words = slugWords(slug);
  if (words.length === 0) return null;
  const [entries, books] = await Promise.all([
    catalogEntriesInSeries(store, words),
    booksInSeries(store.db, words),
  ]);
  let name: string | null = null;
  const volumes = new Map<string, SeriesVolume>();
  const keyOf = (number: number | null, title: string) =>
    number === null ? `t:${foldText(title)}` : `n:${number}`;
  const matches = (note: string | null) => {
    const position = seriesPosition(note);
    if (!position || position.slug !== slug || position.isRange) return null;
    name ??= position.name;
    return position;
  };
  for (const { book, series } of books) {
    const position = matches(series);
    if (!position) continue;
    const key = keyOf(position.number, book.title);
    if (!volumes.has(key)) volumes.set(key, { ...bookItem(book), number: position.number });
  }
  const fromCatalog: Array<{ entry: ShelfEntry; number: number | null }> = [];
  for (const entry of entries) {
    const position = matches(entry.series);
    if (position) fromCatalog.push({ entry, number: position.number });
  }
  if (name === null) return null;
  const created = await booksByIsbn13(
    store.db,
    fromCatalog.flatMap(({ entry }) => (entry.isbn13 ? [entry.isbn13] : [])),
  );
  const byIsbn = new Map(created.map((book) => [book.isbn13, book]));
  // Entries come most popular first, so the first edition seen for a number is the one kept.
  for (const { entry, number } of fromCatalog) {
    const key = keyOf(number, entry.title);
    const book = entry.isbn13 ? byIsbn.get(entry.isbn13) : undefined;
    const existing = volumes.get(key);
    if (existing?.bookSlug) continue;
    if (book) volumes.set(key, { ...bookItem(book), number });
    else if (!existing) volumes.set(key, { ...entryItem(entry), number });
  }
  const ordered = [...volumes.values()].sort(
    (a, b) =>
      (a.number ?? Number.POSITIVE_INFINITY) - (b.number ?? Number.POSITIVE_INFINITY) ||
      a.title.localeCompare(b.title),
  );
  return { name, slug, volumes: ordered };
}

export async function loadAuthorPage(store: Store, slug: string): Promise<AuthorPage | null> {
  const words = slugWords(slug);
  if (words.length === 0) return null;
  const [books, entries] = await Promise.all([
    booksByAuthorWords(store.db, words),
    catalogEntriesByAuthorWords(store, words),
  ]);
  let name: string | null = null;
  const byAuthor = (authors: readonly string[]) => {
    const found = authors.find((author) => nameSlug(author) === slug);
    if (found) name ??= found;
    return found !== undefined;
  };
  const ownBooks = books.filter((book) => byAuthor(book.authors));
  const ownEntries = entries.filter((entry) => byAuthor(entry.authors));
  if (name === null) return null;
  const clicks = await clickCounts(
    store.db,
    ownBooks.map((book) => book.id),
  );
  const popularity = new Map(
    ownEntries.flatMap((entry) => (entry.isbn13 ? [[entry.isbn13, entry.popularity]] : [])),
  );
  const ranked = new Map<string, { item: ShelfItem & { clicks: number }; popularity: number }>();
  const keep = (key: string, item: ShelfItem & { clicks: number }, score: number) => {
    const current = ranked.get(key);
    if (
      !current ||
      item.clicks > current.item.clicks ||
      (item.clicks === current.item.clicks && score > current.popularity)
    )
      ranked.set(key, { item, popularity: score });
  };
  // One line per work (editions share it), else per title: a reader wants the book, not each printing.
  for (const book of ownBooks) {
    const key = book.workId === null ? `t:${foldText(book.title)}` : `w:${book.workId}`;
    keep(
      key,
      { ...bookItem(book), clicks: clicks.get(book.id) ?? 0 },
      popularity.get(book.isbn13 ?? '') ?? 0,
    );
  }
  const titlesWithPages = new Set(ownBooks.map((book) => foldText(book.title)));
  for (const entry of ownEntries) {
    if (titlesWithPages.has(foldText(entry.title))) continue;
    keep(`t:${foldText(entry.title)}`, { ...entryItem(entry), clicks: 0 }, entry.popularity);
  }
  const sorted = [...ranked.values()]
    .sort(
      (a, b) =>
        b.item.clicks - a.item.clicks ||
        b.popularity - a.popularity ||
        a.item.title.localeCompare(b.item.title),
    )
    .slice(0, AUTHOR_PAGE_LIMIT)
    .map(({ item }) => item);
  return { name, slug, books: sorted };
}

/** `/author/…` and `/series/…` paths of the books that have pages, each once, for the sitemap. */
export async function shelfPaths(store: Store, limit: number): Promise<string[]> {
  const { authors, seriesNotes } = await shelfNamesOfBooks(store.db, limit);
  const paths = new Set<string>();
  for (const list of authors) {
    for (const name of list) {
      const slug = nameSlug(name);
      if (slug) paths.add(`/author/${encodeURIComponent(slug)}`);
    }
  }
  for (const note of seriesNotes) {
    const position = seriesPosition(note);
    if (position && !position.isRange) paths.add(`/series/${encodeURIComponent(position.slug)}`);
  }
  return [...paths].slice(0, limit);
}

/**
 * Popular books for a home page without featured lists: the catalog's most popular editions (a book
 * page when one exists, its ISBN link otherwise), one per title.
 */
export async function loadPopularBooks(store: Store, limit: number): Promise<ShelfItem[]> {
  const entries = await popularCatalogEntries(store.db, limit * 3);
  const seen = new Set<string>();
  const unique = entries.filter((entry) => {
    const key = foldText(entry.title);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const chosen = unique.slice(0, limit);
  const books = await booksByIsbn13(
    store.db,
    chosen.flatMap((entry) => (entry.isbn13 ? [entry.isbn13] : [])),
  );
  const byIsbn = new Map(books.map((book) => [book.isbn13, book]));
  return chosen.map((entry) => {
    const book = entry.isbn13 ? byIsbn.get(entry.isbn13) : undefined;
    return book ? bookItem(book) : entryItem(entry);
  });
}

/** The shelves (series, author and popular books) of one store, built once in the container. */
export class Shelves {
  constructor(private readonly store: Store) {}

  series(slug: string): Promise<SeriesPage | null> {
    return loadSeriesPage(this.store, slug);
  }

  author(slug: string): Promise<AuthorPage | null> {
    return loadAuthorPage(this.store, slug);
  }

  paths(limit: number): Promise<string[]> {
    return shelfPaths(this.store, limit);
  }

  popular(limit: number): Promise<ShelfItem[]> {
    return loadPopularBooks(this.store, limit);
  }
}
