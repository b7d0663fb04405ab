import { catalogEntryToRecord } from '../../catalog/local.js';
import type { BookRecord } from '../../catalog/types.js';
import type { RankInput } from '../../domain/ranking.js';
import { workGroupKey } from '../../domain/ranking.js';
import { namingSubtitle } from '../../domain/subtitles.js';
import { titleParts } from '../../domain/title-parts.js';
import { type Book, bookRowToBook } from '../../store/books.js';
import type { BookRow, CatalogEntryRow } from '../../store/schema.js';

/**
 * Candidates: the editions a search ranks, made from saved books, catalog entries and provider
 * records alike, one per ISBN, volumes told apart from their whole work.
 */

/** One edition that could answer the query: a saved book, a catalog entry or a provider record. */
export interface Candidate extends RankInput {
  record: BookRecord;
  book: Book | null;
  relevance: number;
  /** The work key by title and author alone, before `apartVolumes` tells volumes from their work. */
  titleKey: string;
  /** Its series note names the series by the words asked, unconfirmed (see `nameProviderSeries`). */
  seriesInferred?: boolean;
}

/** A provider record's popularity: a work in print in many editions is a known one. */
const POPULARITY_PER_EDITION = 1000;
/** Editions assumed for a published book whose provider does not count them (Google, iTunes). */
const UNCOUNTED_EDITIONS = 10;

export function bookToRecord(book: Book): BookRecord {
  return {
    source: 'book',
    isbn13: book.isbn13,
    isbn10: book.isbn10,
    title: book.title,
    subtitle: book.subtitle,
    authors: book.authors,
    publishedDate: book.publishedDate,
    publisher: book.publisher,
    coverUrl: book.coverUrl,
    language: book.language,
    format: null,
    pages: book.pages,
    description: book.description,
    identifiers: {},
    workKey: null,
  };
}

export function candidate(
  record: BookRecord,
  book: Book | null,
  popularity: number,
  fallbackKey: string,
): Candidate {
  const groupKey = workGroupKey(record.title, record.authors) ?? fallbackKey;
  return {
    record,
    book,
    title: record.title,
    authors: record.authors,
    format: book?.format ?? record.format,
    language: record.language,
    groupKey,
    titleKey: groupKey,
    popularity,
    clicks: 0,
    pinned: false,
    saved: book !== null,
    hasCover: Boolean(record.coverUrl),
    series: record.identifiers.series ?? null,
    originalTitle: record.identifiers.original_title ?? null,
    relevance: 0,
  };
}

/** The series names the local candidates' notes carry, as folded words, each once. */
export function uniqueSeriesNames(candidates: readonly Candidate[]): string[][] {
  const names = new Map<string, string[]>();
  for (const c of candidates) {
    const name = c.series ? titleParts(c).series?.name : undefined;
    if (name && name.length > 0) names.set(name.join(' '), name);
  }
  return [...names.values()];
}

/**
 * A provider's answer. One without any ISBN, or a work its provider counts no edition of (an Open
 * Library stub, `edition_count: 0`), is a stub: never ahead of a real edition. The catalog's own
 * entries without an ISBN (public-domain texts, rows an operator imported) are books, not stubs.
 */
export function remoteCandidate(record: BookRecord, index: string): Candidate {
  const popularity = (record.editionCount ?? UNCOUNTED_EDITIONS) * POPULARITY_PER_EDITION;
  const key = record.isbn13 ?? record.workKey ?? `${index}`;
  const stub = (!record.isbn13 && !record.isbn10) || record.editionCount === 0;
  return { ...candidate(record, null, popularity, `remote:${key}`), stub };
}

export const fromBookRow = (row: BookRow) => {
  const book = bookRowToBook(row);
  return candidate(bookToRecord(book), book, row.popularity, `book:${book.id}`);
};
export const fromEntryRow = (row: CatalogEntryRow) =>
  candidate(catalogEntryToRecord(row), null, row.popularity, `entry:${row.id}`);

/**
 * A saved book standing for a catalog entry of its edition keeps what only the catalog knows:
 * series note, original title and ratings. Creating the book must not demote it in search.
 */
function savedOverEntry(saved: Candidate, entry: Candidate): Candidate {
  return {
    ...saved,
    pinned: saved.pinned || entry.pinned,
    series: saved.series ?? entry.series,
    originalTitle: saved.originalTitle ?? entry.originalTitle,
    popularity: Math.max(saved.popularity, entry.popularity),
  };
}

/** One candidate per ISBN (a saved book wins over a catalog entry of the same edition). */
export function dedupe(candidates: Candidate[]): Candidate[] {
  const byKey = new Map<string, Candidate>();
  for (const c of candidates) {
    const key = c.record.isbn13
      ? `isbn:${c.record.isbn13}`
      : c.book
        ? `book:${c.book.id}`
        : `${c.groupKey}|${c.title}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, c);
    else if (!seen.book && c.book) byKey.set(key, savedOverEntry(c, seen));
    else if (seen.book && !c.book) byKey.set(key, savedOverEntry(seen, c));
    else if (c.pinned) seen.pinned = true;
  }
  return [...byKey.values()];
}

/**
 * Volumes told apart from their whole work: editions that share a title and author ("The Lord of
 * the Rings") but that the catalog files under different works, one with a naming subtitle ("The
 * Return of the King"), are different books. Each subtitle then keys a work of its own and is read
 * as part of the title, so "the lord of the rings" names the whole work better than the volume. A
 * subtitle within one work ("Outliers: The Story of Success") changes nothing.
 */
export function apartVolumes(candidates: readonly Candidate[]): Candidate[] {
  const works = new Map<string, Set<string>>();
  for (const c of candidates) {
    if (!c.record.workKey) continue;
    const keys = works.get(c.titleKey) ?? new Set<string>();
    keys.add(c.record.workKey);
    works.set(c.titleKey, keys);
  }
  return candidates.map((c) => {
    const subtitle = (works.get(c.titleKey)?.size ?? 0) > 1 ? namingSubtitle(c.record.subtitle) : null;
    if (!subtitle)
      return c.groupKey === c.titleKey ? c : { ...c, groupKey: c.titleKey, title: c.record.title };
    return { ...c, groupKey: `${c.titleKey}|${subtitle}`, title: `${c.record.title}: ${c.record.subtitle}` };
  });
}
