import { type Isbn, parseIsbn } from '../../domain/isbn.js';
import { LANGUAGE_639_1 } from '../../domain/languages.js';
import type { BookFormat } from '../types.js';

/** Trims and collapses whitespace; empty strings become null so "" never lands in the catalog. */
export function cleanText(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const raw = String(value);
  // Most cells hold only single spaces: testing is cheaper than building a replaced copy of each.
  const text = (RUN_OR_ODD_SPACE.test(raw) ? raw.replace(/\s+/g, ' ') : raw).trim();
  return text === '' ? null : text;
}

/** Whitespace that collapsing would change: two in a row, or any but a plain space. */
const RUN_OR_ODD_SPACE = /\s\s|[^\S ]/;

/** An Open Library key's last segment, cleaned: "/books/OL1M" → "OL1M". */
export function lastSegment(key: unknown): string | null {
  const text = cleanText(key);
  return text === null ? null : text.slice(text.lastIndexOf('/') + 1);
}

/** A positive integer from "352", 352 or "2008.0"; anything else is null. */
export function positiveInt(value: unknown): number | null {
  const number = typeof value === 'number' ? value : Number(cleanText(value) ?? Number.NaN);
  return Number.isFinite(number) && number > 0 ? Math.trunc(number) : null;
}

// Spreadsheets turn ISBN columns into floats ("9.78043902348e+12", "76783609419.0"); the digits they
// keep are not an ISBN, so such values are refused instead of being "repaired" into a wrong book.
const FLOAT_RENDERING = /^\d+(?:\.\d+)?e[+-]?\d+$|^\d+\.\d+$/i;

/** Parses one ISBN cell, restoring leading zeros a spreadsheet dropped from an ISBN-10. */
export function isbnFrom(value: unknown): Isbn | null {
  const text = cleanText(value);
  if (!text || FLOAT_RENDERING.test(text)) return null;
  if (/^\d{7,9}$/.test(text)) return parseIsbn(text.padStart(10, '0'));
  return parseIsbn(text);
}

/** The first valid ISBN among the candidates, in order of trust. */
export function firstIsbn(candidates: readonly unknown[]): Isbn | null {
  for (const candidate of candidates) {
    const isbn = isbnFrom(candidate);
    if (isbn) return isbn;
  }
  return null;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function monthOf(word: string): number {
  return MONTHS.indexOf(word.slice(0, 3).toLowerCase()) + 1;
}

/**
 * Reduces the date spellings found in dumps ("December 1993", "May 5, 2001", "2008.0", "2001-05-05")
 * to ISO 8601 at the precision known: YYYY, YYYY-MM or YYYY-MM-DD. Years before 1000 are not edition
 * dates (Goodreads gives the Odyssey -720), so they are dropped.
 */
export function isoDate(value: unknown): string | null {
  const text = cleanText(value);
  if (!text) return null;
  const iso = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?(?:[T ].*)?$/.exec(text);
  if (iso) return [iso[1], iso[2], iso[3]].filter(Boolean).join('-');
  const asNumber = /^(\d{4})(?:\.0+)?$/.exec(text);
  if (asNumber) return asNumber[1] ?? null;
  const monthFirst = /^([A-Za-z]{3,})\.?\s+(?:(\d{1,2}),?\s+)?(\d{4})$/.exec(text);
  const dayFirst = /^(\d{1,2})\s+([A-Za-z]{3,})\.?,?\s+(\d{4})$/.exec(text);
  const [month, day, year] = monthFirst
    ? [monthOf(monthFirst[1] ?? ''), monthFirst[2], monthFirst[3]]
    : dayFirst
      ? [monthOf(dayFirst[2] ?? ''), dayFirst[1], dayFirst[3]]
      : [0, undefined, /(?<!\d)(1\d{3}|20\d{2})(?!\d)/.exec(text)?.[1]];
  if (!year) return null;
  if (month === 0) return year;
  return day ? `${year}-${pad(month)}-${pad(Number(day))}` : `${year}-${pad(month)}`;
}

export function languageCode(value: unknown): string | null {
  const text = cleanText(value)
    ?.toLowerCase()
    .replace(/^\/languages\//, '');
  if (!text) return null;
  const base = text.split(/[-_;,\s]/)[0] ?? '';
  if (/^[a-z]{2}$/.test(base)) return base;
  return LANGUAGE_639_1[base] ?? (/^[a-z]{3}$/.test(base) ? base : null);
}

// Order matters: "Mass Market Paperback" and "Large Print Paperback" are not plain paperbacks.
const FORMAT_PATTERNS: ReadonlyArray<[RegExp, BookFormat]> = [
  [/large[\s-]?print/i, 'large-print'],
  [/library[\s-]?binding/i, 'library-binding'],
  [/board[\s-]?book/i, 'board-book'],
  [/mass[\s-]?market/i, 'mass-market'],
  [/audio|mp3|cd\b|cassette/i, 'audiobook'],
  [/e-?book|kindle|epub|electronic|digital/i, 'ebook'],
  [/hard\s?(?:cover|back|bound)|hardcover|leather|cloth/i, 'hardcover'],
  [/paper\s?back|soft\s?(?:cover|back)|trade paper|perfect/i, 'paperback'],
];

export function bookFormat(value: unknown): BookFormat | null {
  const text = cleanText(value);
  if (!text) return null;
  for (const [pattern, format] of FORMAT_PATTERNS) if (pattern.test(text)) return format;
  return 'other';
}

/** An absolute http(s) URL, or null; placeholder images ("nophoto") count as no cover. */
export function coverUrl(value: unknown): string | null {
  const text = cleanText(value);
  if (!text || !/^https?:\/\/\S+$/i.test(text) || /nophoto|no[-_]?cover|placeholder/i.test(text)) return null;
  return text;
}
