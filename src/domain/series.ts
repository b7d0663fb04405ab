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

// "Naruto, Vol. 1", "One Piece, Tome 1", "Batman La Légende - Neal Adams - Tome 3", "Harry Potter,
// Band 1: …", "Astérix - Tome 1 - Astérix le Gaulois": a name, a separator (comma, colon or dash),
// a volume word and its number, then the end or a subtitle. A volume word after a bare space is
// part of the title ("The Jungle Book 2" is not volume 2 of "The Jungle").
const TITLE_VOLUME = new RegExp(
  `^(.+?)\\s*(?:,|:|\\s[-–—])\\s*(?:(?:vol|${VOLUME_WORDS.join('|')})\\s+|(?:${VOLUME_ABBREVIATIONS.join('|')})\\.\\s*)` +
    `(\\d{1,3})(?=$|\\s*[:;]\\s|\\s+[-–—]\\s)`,
  'i',
);
// "The Silkworm (Cormoran Strike Book 2)", "(Discworld Novel 5)" is not: a series name, a volume word, its number.
const TITLE_VOLUME_NOTE = new RegExp(
  `^(.+?)\\s*\\(\\s*([^()]+?),?\\s+(?:vol\\.?|${VOLUME_WORDS.join('|')})\\s*(\\d{1,3})\\s*\\)\\s*$`,
  'i',
);
// "進撃の巨人（３）", "ワンピース 第3巻" (read after NFKC: fullwidth digits and brackets are plain).
const TITLE_VOLUME_CJK =
  /^(.*?[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}].*?)\s*(?:第\s*(\d{1,3})\s*巻|\((\d{1,3})\))\s*$/u;

/** A volume a title prints: the series' name as printed, the main title, and the volume's number. */
export interface TitleVolume {
  /** The series' name ("Naruto", "Batman La Légende - Neal Adams", "Cormoran Strike"). */
  series: string;
  /** The title without the volume ("The Silkworm" of "The Silkworm (Cormoran Strike Book 2)"). */
  main: string;
  number: number;
  /** The volume is the title's own ("Naruto, Vol. 1"), not a note after it: each volume is titled apart. */
  titled: boolean;
}

/**
 * The volume number a title prints after its name, in the forms publishers give the providers in
 * the UI's languages: "Naruto, Vol. 1" and "Batman La Légende - Neal Adams - Tome 3" (Google Books
 * titles), "Harry Potter, Band 1: …", "Dune, Livre 1", "The Silkworm (Cormoran Strike Book 2)",
 * "進撃の巨人（３）", "ワンピース 第3巻". Null when the title prints none. Pure.
 */
export function titleVolume(title: string): TitleVolume | null {
  const text = title.normalize('NFKC').trim();
  const note = TITLE_VOLUME_NOTE.exec(text);
  if (note?.[1] && note[2] && note[3])
    return { series: note[2].trim(), main: note[1].trim(), number: Number(note[3]), titled: false };
  const plain = TITLE_VOLUME.exec(text);
  if (plain?.[1] && plain[2])
    return { series: plain[1].trim(), main: text, number: Number(plain[2]), titled: true };
  const cjk = TITLE_VOLUME_CJK.exec(text);
  const number = cjk?.[2] ?? cjk?.[3];
  if (cjk?.[1] && number) return { series: cjk[1].trim(), main: text, number: Number(number), titled: true };
  return null;
}
