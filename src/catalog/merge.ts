import { foldText } from '../domain/text.js';
import { datePrecision } from './providers/normalise.js';
import type { BookRecord } from './types.js';

/** "(The Hunger Games, #1)", "[Series Name 3]", "(Discworld Book 5)" at the end of a title. */
const SERIES_NOTE = /\s*[([][^)\]]*(#\s*\d+|\bbook\s+\d+|\bvol(ume)?\.?\s*\d+|\s\d+)[^)\]]*[)\]]\s*$/i;

export function hasSeriesNote(title: string): boolean {
  return SERIES_NOTE.test(title);
}

/** The most trusted title without series notes; the notes are stripped when every title has them. */
function bestTitle(records: readonly BookRecord[]): string {
  const titles = records.map((record) => record.title.replace(/\s+/g, ' ').trim()).filter(Boolean);
  const clean = titles.find((title) => !hasSeriesNote(title));
  if (clean) return clean;
  const first = titles[0] ?? '';
  return first.replace(SERIES_NOTE, '').trim() || first;
}

/** The longest author list, ties to the most trusted source, without duplicates. */
function bestAuthors(records: readonly BookRecord[]): string[] {
  let best: readonly string[] = [];
  for (const record of records) if (record.authors.length > best.length) best = record.authors;
  const seen = new Set<string>();
  return best.filter((name) => {
    const key = foldText(name);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function bestDate(records: readonly BookRecord[]): string | null {
  let best: string | null = null;
  for (const record of records) {
    if (datePrecision(record.publishedDate) > datePrecision(best)) best = record.publishedDate;
  }
  return best;
}

const PLACEHOLDER =
  /nophoto|no[-_]?cover|no[-_]?image|placeholder|\/b\/id\/-1-|avatar_book|image_not_available/i;

/**
 * How much a cover URL can be trusted to show a real image: 2 for URLs naming a stored image (an
 * Open Library cover id, Google's content thumbnail, Apple's artwork), 1 for URLs that may still
 * answer a blank (Open Library by ISBN/OLID), 0 for known "no photo" placeholders.
 */
export function coverQuality(url: string | null): number {
  if (!url || PLACEHOLDER.test(url)) return 0;
  if (/\/b\/(isbn|olid|oclc|lccn)\//i.test(url)) return 1;
  return 2;
}

function bestCover(records: readonly BookRecord[]): string | null {
  let best: string | null = null;
  for (const record of records) {
    if (coverQuality(record.coverUrl) > coverQuality(best)) best = record.coverUrl;
  }
  return best;
}

function first<K extends keyof BookRecord>(records: readonly BookRecord[], key: K): BookRecord[K] | null {
  for (const record of records) {
    const value = record[key];
    if (value !== null && value !== '') return value;
  }
  return null;
}

/** Union of identifiers; on conflict the more trusted source wins. */
function identifiers(records: readonly BookRecord[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const record of records) {
    for (const [scheme, value] of Object.entries(record.identifiers)) merged[scheme] ??= value;
  }
  return merged;
}

/** Every identifier every source listed, each pair once (the identifier index takes them all). */
function allIdentifiers(records: readonly BookRecord[]): [string, string][] {
  const seen = new Set<string>();
  const pairs: [string, string][] = [];
  for (const record of records) {
    for (const [scheme, value] of record.allIdentifiers ?? []) {
      const key = `${scheme}\0${value}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pairs.push([scheme, value]);
    }
  }
  return pairs;
}

/** The subtitle, unless the chosen title already carries it ("Title: Subtitle"). */
function subtitleFor(title: string, records: readonly BookRecord[]): string | null {
  const subtitle = first(records, 'subtitle');
  return subtitle && !foldText(title).includes(foldText(subtitle)) ? subtitle : null;
}

/**
 * Merges what several sources know about one edition into one record. `records` is in order of
 * trust (most trusted first): single facts come from the most trusted source that has them, while
 * authors, dates and covers go to the fullest, most precise and most reliable answer.
 */
export function mergeRecords(records: readonly BookRecord[]): BookRecord {
  if (records.length === 0) throw new Error('mergeRecords needs at least one record');
  const title = bestTitle(records);
  const merged = identifiers(records);
  return {
    source: [...new Set(records.map((record) => record.source))].join('+'),
    isbn13: first(records, 'isbn13'),
    isbn10: first(records, 'isbn10'),
    title,
    subtitle: subtitleFor(title, records),
    authors: bestAuthors(records),
    publishedDate: bestDate(records),
    publisher: first(records, 'publisher'),
    coverUrl: bestCover(records),
    language: first(records, 'language'),
    format: first(records, 'format'),
    pages: first(records, 'pages'),
    description: first(records, 'description'),
    identifiers: merged,
    workKey: first(records, 'workKey') ?? merged.ol_work ?? null,
    ...(records.some((record) => record.allIdentifiers) ? { allIdentifiers: allIdentifiers(records) } : {}),
    ...providerSeriesOf(records),
    ...firstPublishYearOf(records),
  };
}

/** The earliest first publication any source gives for the work (Open Library's `first_publish_year`). */
function firstPublishYearOf(records: readonly BookRecord[]): Pick<BookRecord, 'firstPublishYear'> {
  const years = records.flatMap((record) => (record.firstPublishYear ? [record.firstPublishYear] : []));
  return years.length > 0 ? { firstPublishYear: Math.min(...years) } : {};
}

/** The first source's own series of the edition (Google's `seriesInfo`), kept for search. */
function providerSeriesOf(records: readonly BookRecord[]): Pick<BookRecord, 'providerSeries'> {
  const providerSeries = records.find((record) => record.providerSeries)?.providerSeries;
  return providerSeries ? { providerSeries } : {};
}
