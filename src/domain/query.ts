import { findIsbnInText, type Isbn, parseIsbn } from './isbn.js';
import { VOLUME_SUFFIX_SOURCE, volumeNumber } from './series.js';
import { composedText, foldText } from './text.js';

/** One reading of the query as title and author; ranking scores every reading and keeps the best. */
export interface QuerySplit {
  title: string;
  author: string | null;
}

export type ParsedQuery =
  | { kind: 'empty'; raw: string; key: string }
  | { kind: 'isbn'; raw: string; key: string; isbn: Isbn }
  | { kind: 'url'; raw: string; key: string; url: string }
  | TextQuery;

export interface TextQuery {
  kind: 'text';
  raw: string;
  /** The folded query: the key search pins and logs use. */
  key: string;
  /** Folded words to match, without "by" markers and series numbers. */
  terms: string[];
  /** The same words as the database indexes split them (see `indexTokens`), for retrieval. */
  tokens: string[];
  /** Explicit readings ("title by author", "author: title"); the whole text as a title always comes first. */
  splits: QuerySplit[];
  /** Folded quoted phrases that must appear in that order. */
  phrases: string[];
  /** "hunger games 2", "dune book 3", "#4": the volume asked for. */
  seriesNumber: number | null;
}

const URL_PATTERN = /^(?:https?:\/\/|www\.)\S+$|^[a-z0-9-]+(?:\.[a-z0-9-]+)+\/\S*$/i;
/** "… book 2", "… Band 3", "… vol. 4", "… book two", "… 3巻" (number words in English only). */
const VOLUME_SUFFIX = new RegExp(VOLUME_SUFFIX_SOURCE, 'i');
/** "hunger games 2": a bare trailing number. */
const BARE_NUMBER = /\s+(\d{1,2})$/;
const SERIES_HASH = /\s*#\s*(\d{1,3})\s*$/;

/** The key a query is logged and pinned under: folded, so "Dune!" and "dune" share a pin. */
export function queryKey(text: string): string {
  return foldText(text).slice(0, 500);
}

/** Tells ISBNs, URLs and text apart and reads the text as title/author/series parts. Pure. */
export function parseQuery(input: string): ParsedQuery {
  const raw = input.trim().slice(0, 500);
  const key = queryKey(raw);
  if (!key) return { kind: 'empty', raw, key };
  if (URL_PATTERN.test(raw)) return { kind: 'url', raw, key, url: raw };
  const isbn = isbnOnly(raw);
  if (isbn) return { kind: 'isbn', raw, key, isbn };
  return parseText(raw, key);
}

/** An ISBN typed alone (or with an "ISBN" label) in any spacing; an ISBN inside prose is text. */
function isbnOnly(raw: string): Isbn | null {
  const direct = parseIsbn(raw);
  if (direct) return direct;
  const stripped = raw.replace(/^isbn(?:-1[03])?\s*:?\s*/i, '');
  if (!/^[\d\s\-xX.]+$/.test(stripped)) return null;
  return findIsbnInText(stripped);
}

function parseText(raw: string, key: string): TextQuery {
  const phrases = [...raw.matchAll(/["“”«»]([^"“”«»]+)["“”«»]/g)]
    .map((match) => foldText(match[1] ?? ''))
    .filter(Boolean);
  const unquoted = raw
    .replace(/["“”«»]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const { text, seriesNumber } = splitSeries(unquoted);
  const splits: QuerySplit[] = [{ title: foldText(text), author: null }];
  const byMatch = /^(.+?)\s+by\s+(.+)$/i.exec(text);
  if (byMatch?.[1] && byMatch[2]) {
    splits.push({ title: foldText(byMatch[1]), author: foldText(byMatch[2]) });
  }
  const colon = /^([^:]{2,60}):\s*(.+)$/.exec(text);
  if (colon?.[1] && colon[2]) {
    // "Tolkien: The Hobbit" and "Dune: Messiah" look alike; the ranking tries both readings.
    splits.push({ title: foldText(colon[2]), author: foldText(colon[1]) });
    splits.push({ title: foldText(colon[1]), author: foldText(colon[2]) });
  }
  const dashed = /^(.+?)\s+[-–—]\s+(.+)$/.exec(text);
  if (dashed?.[1] && dashed[2]) {
    splits.push({ title: foldText(dashed[1]), author: foldText(dashed[2]) });
    splits.push({ title: foldText(dashed[2]), author: foldText(dashed[1]) });
  }
  const words = foldText(text).split(' ').filter(Boolean);
  const dropBy = (list: string[]) => (byMatch ? list.filter((word, i) => word !== 'by' || i === 0) : list);
  const terms = dropBy(words);
  const tokens = dropBy(indexTokens(text));
  return { kind: 'text', raw, key, terms, tokens, splits: dedupeSplits(splits), phrases, seriesNumber };
}

/**
 * A trailing small number reads as a volume ("hunger games 2"), unless the number is the whole
 * query or part of a title the ranking can still match ("catch 22" keeps its term as well).
 */
function splitSeries(text: string): { text: string; seriesNumber: number | null } {
  const match = SERIES_HASH.exec(text) ?? VOLUME_SUFFIX.exec(text) ?? BARE_NUMBER.exec(text);
  const number = match ? volumeNumber(match[1] ?? match[2] ?? '') : null;
  if (!match || number === null) return { text, seriesNumber: null };
  const rest = text.slice(0, match.index).trim();
  if (!/\p{L}{2,}/u.test(rest)) return { text, seriesNumber: null };
  return { text: rest, seriesNumber: number };
}

function dedupeSplits(splits: QuerySplit[]): QuerySplit[] {
  const seen = new Set<string>();
  return splits.filter((split) => {
    const id = `${split.title}|${split.author ?? ''}`;
    if (!split.title || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * Words as the databases index them (SQLite unicode61, PostgreSQL `simple` over `booklink_fold`):
 * composed as stored text is (a kana's voiced mark on its letter, a Hangul syllable whole), Latin
 * accents removed, split at everything but letters and digits: at punctuation, apostrophes and every
 * combining mark (an Indic vowel sign, a Hebrew point), where both indexes split too.
 */
export function indexTokens(text: string): string[] {
  return composedText(text)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}
