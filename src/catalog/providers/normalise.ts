import { LANGUAGE_639_1 } from '../../domain/languages.js';
import type { BookFormat } from '../types.js';
import { htmlToText, markdownToText, withoutControls } from './text.js';

/** Readers for untrusted JSON: each answers the value when it has the expected type, else null. */
export type Json = Record<string, unknown>;

export function obj(value: unknown): Json | null {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A provider's answer read as records: each object of `body[field]` that `toRecord` makes one of. */
export function recordsIn<T>(body: unknown, field: string, toRecord: (item: Json) => T | null): T[] {
  return arr(obj(body)?.[field]).flatMap((item) => {
    const json = obj(item);
    const record = json === null ? null : toRecord(json);
    return record === null ? [] : [record];
  });
}

/** A string field as one line of text: control characters removed, blank runs made one space. */
export function str(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = withoutControls(value).replace(/\s+/g, ' ').trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * A text field that Open Library writes as a string or as a typed value, `{"type": "/type/text",
 * "value": "…"}` (descriptions, notes, first sentences), untrimmed.
 */
export function textValue(value: unknown): string | null {
  if (typeof value === 'string') return value;
  const typed = obj(value);
  return typeof typed?.value === 'string' ? typed.value : null;
}

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function positiveInt(value: unknown): number | null {
  const n = num(value);
  return n !== null && n > 0 ? Math.round(n) : null;
}

export function strings(value: unknown): string[] {
  return arr(value)
    .map(str)
    .filter((item): item is string => item !== null);
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

const pad = (n: number) => String(n).padStart(2, '0');

/** A month from its full English name or a 3-letter abbreviation ("Sept" too); not "Mayhem". */
function monthIn(text: string): number | null {
  for (const [word] of text.toLowerCase().matchAll(/[a-z]+/g)) {
    const index = MONTHS.findIndex((name) => word === name || (word.length >= 3 && name.startsWith(word)));
    if (index >= 0 && (word.length === 3 || word === 'sept' || word === MONTHS[index])) return index + 1;
  }
  return null;
}

function iso(year: number, month: number | null, day: number | null): string {
  if (month === null || month < 1 || month > 12) return String(year);
  if (day === null || day < 1 || day > 31) return `${year}-${pad(month)}`;
  return `${year}-${pad(month)}-${pad(day)}`;
}

/** One day later, as an ISO date. */
function nextDay(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/**
 * The date a timestamp stands for. Stores give a day as its local midnight written in UTC:
 * "2012-03-26T07:00:00Z" is midnight in California, "2013-12-31T23:00:00Z" midnight of 1 January in
 * Paris, "2016-07-30T15:00:00Z" of 31 July in Tokyo. A UTC time on a quarter hour from noon on is a
 * midnight east of Greenwich, the next day's; earlier ones, and times with their own offset
 * ("2014-01-01T00:00:00+01:00"), are on the day written.
 */
function timestampDate(year: number, month: number, day: number, time: string): string {
  const utc = /^T(\d{2}):(\d{2})(?::(\d{2})(?:\.0+)?)?(?:Z|[+-]00:?00)$/i.exec(time);
  const hour = Number(utc?.[1]);
  const minute = Number(utc?.[2]);
  const second = Number(utc?.[3] ?? 0);
  if (utc && hour >= 12 && hour <= 23 && minute % 15 === 0 && second === 0) return nextDay(year, month, day);
  return iso(year, month, day);
}

/**
 * Publication dates arrive as "2006-03-01", "2008-07-28T07:00:00Z", "2013-12-31T23:00:00.000Z",
 * "2008-07-28 07:00:00 +0000", "March 2006", "July 28, 2008", "28 July 2008", "c1998" or "[1998?]".
 * Answers the most precise ISO form the text supports (YYYY, YYYY-MM or YYYY-MM-DD), or null when no
 * year can be found. Parsed by hand: Date would shift a bare date across time zones.
 */
export function normaliseDate(input: unknown): string | null {
  const text = str(input);
  if (!text) return null;
  const stamp =
    /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) ?(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
  if (stamp) {
    const [year, month, day] = [Number(stamp[1]), Number(stamp[2]), Number(stamp[3])];
    if (month >= 1 && month <= 12 && day >= 1 && day <= 31) {
      // A time without a zone is the place's own: its day is the one written.
      return stamp[5] ? timestampDate(year, month, day, `T${stamp[4]}${stamp[5]}`) : iso(year, month, day);
    }
  }
  const isoMatch = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?(?:$|T)/.exec(text);
  if (isoMatch) {
    return iso(Number(isoMatch[1]), numberOrNull(isoMatch[2]), numberOrNull(isoMatch[3]));
  }
  const year = /(?:^|\D)(\d{4})(?:\D|$)/.exec(text);
  if (!year) return null;
  const month = monthIn(text);
  const dayMatch = month === null ? null : /(?:^|\D)(\d{1,2})(?:st|nd|rd|th)?(?:\D|$)/.exec(text);
  return iso(Number(year[1]), month, numberOrNull(dayMatch?.[1]));
}

function numberOrNull(text: string | undefined): number | null {
  return text === undefined ? null : Number(text);
}

/** How precise an ISO date is: 0 none, 1 year, 2 month, 3 day. */
export function datePrecision(date: string | null): number {
  return date ? date.split('-').length : 0;
}

const FORMAT_WORDS: [RegExp, BookFormat][] = [
  [/audio|mp3|cd\b/i, 'audiobook'],
  [/e-?book|kindle|epub|electronic/i, 'ebook'],
  [/mass[\s-]?market/i, 'mass-market'],
  [/large[\s-]?print/i, 'large-print'],
  [/library[\s-]?binding/i, 'library-binding'],
  [/board[\s-]?book/i, 'board-book'],
  [/hard\s?(cover|back)|cloth/i, 'hardcover'],
  [/paper\s?back|softcover|trade paper/i, 'paperback'],
];

/** Maps a source's physical-format text ("Mass Market Paperback") to our formats. */
export function formatFromText(text: unknown): BookFormat | null {
  const value = str(text);
  if (!value) return null;
  return FORMAT_WORDS.find(([pattern]) => pattern.test(value))?.[1] ?? null;
}

/** Plain text from a description that may carry HTML (Google Books, iTunes): see `htmlToText`. */
export function plainText(value: unknown): string | null {
  return typeof value === 'string' ? htmlToText(value) : null;
}

/** Plain text from Open Library's Markdown text, a string or a `{type, value}` object. */
export function markdownText(value: unknown): string | null {
  const text = textValue(value);
  return text === null ? null : markdownToText(text);
}

/** A two-letter language code from "en", "eng", "en-US" or "/languages/eng". */
export function languageCode(value: unknown): string | null {
  const text = str(value)
    ?.toLowerCase()
    .replace(/^\/languages\//, '');
  if (!text) return null;
  const base = text.split(/[-_]/)[0] ?? text;
  if (base.length === 2) return base;
  const code = LANGUAGE_639_1[base];
  return code?.length === 2 ? code : null;
}

/** Joins a base URL (no trailing slash) and a path with a query. */
export function endpoint(base: string, path: string, query: Record<string, string | number>): string {
  const params = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  return `${base}${path}?${params.toString()}`;
}
