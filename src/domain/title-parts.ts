import { memoized } from './memo.js';
import { titleVolume } from './series.js';
import { coreTitle, foldText } from './text.js';

/** A series note as catalogs write it: "The Hunger Games, #2", "Harry Potter, #1-7", "Dune Chronicles #1". */
export interface SeriesNote {
  /** Folded words of the series name. */
  name: string[];
  number: number | null;
  /** "#1-7": a boxed set or omnibus of several volumes, not one of them. */
  range: { from: number; to: number } | null;
  /** "#2.5": a novella or companion between volumes. */
  fractional: boolean;
}

/** What ranking reads from a candidate's title, series and original title; computed once per candidate. */
export interface TitleParts {
  /** Folded words of the core title (no subtitle, no series note, no leading article). */
  core: string[];
  coreText: string;
  /** The whole folded title without its series note and leading article. */
  fullText: string;
  /** Every word a query may match: title, series name and original title. */
  all: Set<string>;
  series: SeriesNote | null;
  /** The original title's full and core text, when the catalog knows a different one. */
  original: { fullText: string; coreText: string; core: string[] } | null;
  /** Marker words of a companion, boxed set or adaptation ("pop up", "film", "boxset"). */
  companion: string[];
}

const TITLE_NOTE = /\s*\(([^()]*#\s*\d[^()]*)\)\s*$/;
const NOTE_PARTS = /^(.*?),?\s*#\s*(\d+)(?:\s*([-–.])\s*(\d+))?/;
const LEADING_ARTICLE = /^(?:the|a|an|le|la|les|el|los|las|der|die|das|il|lo)\s+/;

/**
 * Words that mark a book about, around or bundling a work rather than the work itself: readers
 * typing the work's name want the work, so these rank below it unless the query asks for them.
 */
const COMPANION =
  /\b(?:box(?:ed)? ?set|boxset|collection|complete|omnibus|trilogy|pop ?up|companion|guide|official|illustrated|graphic novel|film|films|movie|screenplay|script|sheet music|coloring|colouring|journal|calendar|cookbook|poster|posters|art of|world of|making of|page to screen|philosophy|unofficial|encyclopedia|handbook|quiz|trivia|workbook|sparknotes|cliffsnotes|summary|books \d+ \d+|volumes? \d+ \d+)\b/g;

/** Parses the first series of a note ("Discworld, #1; Rincewind #1" names two). */
export function parseSeriesNote(note: string | null | undefined): SeriesNote | null {
  const first = note?.split(';')[0]?.trim();
  if (!first) return null;
  const match = NOTE_PARTS.exec(first);
  const nameText = match ? (match[1] ?? '') : first;
  const name = foldText(nameText).replace(LEADING_ARTICLE, '').split(' ').filter(Boolean);
  if (name.length === 0) return null;
  const number = match?.[2] ? Number(match[2]) : null;
  const separator = match?.[3];
  const to = match?.[4] ? Number(match[4]) : null;
  const range =
    number !== null && to !== null && separator !== '.' && to > number ? { from: number, to } : null;
  return { name, number, range, fractional: separator === '.' };
}

const wordsOf = (text: string) => text.split(' ').filter(Boolean);
/** A folded title or query without its leading article ("the hobbit", "les miserables"). */
export const withoutArticle = (folded: string) => folded.replace(LEADING_ARTICLE, '');

export interface TitleSource {
  title: string;
  /** The catalog's series note, when the importer moved it out of the title. */
  series?: string | null;
  originalTitle?: string | null;
}

/**
 * What ranking reads from a title, series note and original title. Remembered for recent titles:
 * every search that retrieves an edition reads it again. The parts are shared: never change them.
 */
export function titleParts(source: TitleSource): TitleParts {
  const { title, series, originalTitle } = source;
  // An absent note and an empty one read alike (no series, no original title).
  return !series && !originalTitle
    ? plainTitleParts(title)
    : notedTitleParts(JSON.stringify([title, series ?? '', originalTitle ?? '']));
}

const plainTitleParts = memoized((title: string) => readTitleParts({ title }));
const notedTitleParts = memoized((key: string) => {
  const [title, series, originalTitle] = JSON.parse(key) as [string, string, string];
  return readTitleParts({ title, series, originalTitle });
});

/** A volume the title prints ("Naruto, Vol. 1", "… - Tome 3", "（３）") as a series note, when no note names one. */
function titleVolumeNote(title: string): { note: SeriesNote; main: string } | null {
  const volume = titleVolume(title);
  if (!volume) return null;
  const name = foldText(volume.series).replace(LEADING_ARTICLE, '').split(' ').filter(Boolean);
  if (name.length === 0) return null;
  return { note: { name, number: volume.number, range: null, fractional: false }, main: volume.main };
}

function readTitleParts(source: TitleSource): TitleParts {
  const note = TITLE_NOTE.exec(source.title);
  const noted = parseSeriesNote(source.series) ?? parseSeriesNote(note?.[1]);
  const printed = noted || note ? null : titleVolumeNote(source.title);
  const main = note && note.index > 0 ? source.title.slice(0, note.index) : (printed?.main ?? source.title);
  const series = noted ?? printed?.note ?? null;
  const coreText = coreTitle(main);
  const fullText = withoutArticle(foldText(main));
  const originalMain = source.originalTitle?.replace(TITLE_NOTE, '') ?? '';
  const originalFull = withoutArticle(foldText(originalMain));
  const original =
    originalFull && originalFull !== fullText
      ? { fullText: originalFull, coreText: coreTitle(originalMain), core: wordsOf(coreTitle(originalMain)) }
      : null;
  const all = new Set([
    ...wordsOf(foldText(main)),
    ...(series?.name ?? []),
    ...(original ? wordsOf(foldText(originalMain)) : []),
  ]);
  const companion = [...foldText(main).matchAll(COMPANION)].map((m) => m[0]);
  return { core: wordsOf(coreText), coreText, fullText, all, series, original, companion };
}
