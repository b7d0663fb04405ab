import { foldText } from './text.js';

/** A series as a page shows it: "The Hunger Games", book 2. */
export interface SeriesPosition {
  name: string;
  slug: string;
  /** 2 for "#2", 2.5 for a novella "#2.5"; null when the note names no number. */
  number: number | null;
  /** "#1-3": a boxed set, not one volume. */
  isRange: boolean;
}

/** Volume numbers as words, "one" (1) to "twelve" (12): how subtitles and series notes spell them. */
export const NUMBER_WORDS: readonly string[] = [
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

/**
 * Words that put a volume number after a series name, in the UI's languages: "book 2", "vol. 3",
 * German "Band 2"/"Teil 2", French "tome 3"/"livre 3", Spanish and Italian "tomo"/"libro"/"volumen",
 * Dutch "deel 2"/"boek 2", Portuguese "livro 2". Abbreviations take their dot ("Bd. 2", "t. 3").
 */
export const VOLUME_WORDS: readonly string[] = [
  'book',
  'volume',
  'part',
  'band',
  'teil',
  'buch',
  'tome',
  'livre',
  'tomo',
  'libro',
  'volumen',
  'parte',
  'deel',
  'boek',
  'livro',
];
/** Abbreviated volume words, written with a dot ("vol.", "Bd.", "t.", "no."). */
export const VOLUME_ABBREVIATIONS: readonly string[] = ['vol', 'no', 'nr', 'bd', 't'];

/**
 * A volume asked at the end of a text, as a regular expression source whose one group is the
 * number or its English word: "… book 2", "… Band 3", "… vol. 4", "… #5", "… book two", "… 第3巻".
 */
export const VOLUME_SUFFIX_SOURCE =
  `(?:\\s+(?:#\\s*|(?:${VOLUME_ABBREVIATIONS.join('|')})\\.\\s*|(?:vol|no|nr|${VOLUME_WORDS.join('|')})\\s+)` +
  `(\\d{1,3}|${NUMBER_WORDS.join('|')})|\\s*第?(\\d{1,3})巻)$`;

/** A volume number as written: digits or an English number word ("two"); null otherwise. */
export function volumeNumber(text: string): number | null {
  if (/^\d{1,3}$/.test(text)) return Number(text);
  const index = NUMBER_WORDS.indexOf(text.toLowerCase());
  return index >= 0 ? index + 1 : null;
}

const NOTE = /^(.*?),?\s*#\s*(\d+(?:\.\d+)?)(?:\s*[-–]\s*\d+)?\s*$/;

/** A name as a URL path segment: "The Hunger Games" → "the-hunger-games". Empty when nothing is left. */
export function nameSlug(name: string): string {
  return foldText(name).replace(/\s+/g, '-').slice(0, 120).replace(/-+$/, '');
}

/** The first series of a catalog note ("Discworld, #1; Rincewind #1" → Discworld, 1). Pure. */
export function seriesPosition(note: string | null | undefined): SeriesPosition | null {
  const first = note?.split(';')[0]?.trim();
  if (!first) return null;
  const match = NOTE.exec(first);
  const name = (match ? (match[1] ?? '') : first).trim();
  const slug = nameSlug(name);
  if (!slug) return null;
  return {
    name,
    slug,
    number: match?.[2] ? Number(match[2]) : null,
    isRange: /#\s*\d+\s*[-–]\s*\d+/.test(first),
  };
}

/** The folded words a stored name must contain to be a candidate for `slug` (checked exactly after). */
export function slugWords(slug: string): string[] {
  return slug.split('-').filter((word) => word.length > 0);
}
