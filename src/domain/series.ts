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
