import type { BookRecord, SearchQuery } from '../../catalog/types.js';
import type { TextQuery } from '../../domain/query.js';
import { seriesPosition, titleVolume } from '../../domain/series.js';
import { firstSurname, foldText } from '../../domain/text.js';
import { type SeriesNote, titleParts, withoutArticle } from '../../domain/title-parts.js';
import type { Candidate } from './candidates.js';

/**
 * A volume the answers do not name, found by its place among the works of its series' author
 * ("cormoran strike 2" when the answers place volumes 1 and 3 but say nothing of 2). The real
 * providers rarely print a series (Google prints it in some subtitles, `seriesInfo` mostly on
 * comics; Open Library's search documents carry no series field at all), but Open Library gives
 * every work its `first_publish_year`, and a series' volumes come out in their order.
 */

/** A series the query names ("cormoran strike 2"), some of its volumes placed by their own notes but not the one asked. */
export interface SeriesAsked {
  /** The series' name as its notes print it ("Cormoran Strike"). */
  name: string;
  /** Folded words of the name, without a leading article (as series notes are compared). */
  words: string;
  wanted: number;
  /** The author every placed volume shares, as a provider prints it: the follow-up question's author. */
  author: string;
}

/** Works asked of the author: an answer this long may be cut short, and then no order is read from it. */
export const SERIES_AUTHOR_LIMIT = 40;

/** A candidate's own series note (catalog note, Google subtitle, a note in the title), when it names one volume. */
function noteOf(
  candidate: Pick<Candidate, 'title' | 'series' | 'originalTitle' | 'seriesInferred'>,
): SeriesNote | null {
  if (candidate.seriesInferred) return null;
  const note = titleParts(candidate).series;
  return note && note.number !== null && !note.range && !note.fractional ? note : null;
}

const folded = (names: readonly string[]) => names.map((name) => foldText(name)).filter(Boolean);

/** The series' name as a volume's note prints it: the catalog's note, a note in the title, a volume the title prints. */
function printedName(candidate: Candidate): string | null {
  const inTitle = /\(([^()]*#\s*\d[^()]*)\)\s*$/.exec(candidate.title)?.[1];
  const note = candidate.series ?? inTitle;
  return (note ? seriesPosition(note)?.name : titleVolume(candidate.title)?.series) ?? null;
}

/**
 * The series a volume query names, when candidates place some of its volumes by their own notes
 * but none is the volume asked, and every placed volume has one author in common. Null otherwise:
 * the volume is there already, or nothing tells whose series it is.
 */
export function seriesAsked(query: TextQuery, candidates: readonly Candidate[]): SeriesAsked | null {
  const wanted = query.seriesNumber;
  if (wanted === null || !Number.isInteger(wanted) || wanted < 1) return null;
  const words = withoutArticle(query.terms.join(' '));
  if (!words) return null;
  const placed = candidates.filter((c) => noteOf(c)?.name.join(' ') === words);
  if (placed.length === 0 || placed.some((c) => noteOf(c)?.number === wanted)) return null;
  const [first] = placed;
  const author = first?.authors.find((name) =>
    placed.every((c) => folded(c.authors).includes(foldText(name))),
  );
  const name = first ? printedName(first) : null;
  if (!author || !name) return null;
  return { name: name.trim(), words, wanted, author };
}

/** The follow-up question: every work of the series' author. */
export function seriesQuestion(asked: SeriesAsked): SearchQuery {
  return { text: '', author: asked.author, limit: SERIES_AUTHOR_LIMIT };
}

/** The year a record puts its work's first publication in: Open Library's for the work, else the edition's. */
function yearOf(record: BookRecord): number | null {
  if (record.firstPublishYear) return record.firstPublishYear;
  const year = /^(\d{4})/.exec(record.publishedDate ?? '')?.[1];
  return year ? Number(year) : null;
}

interface Work {
  key: string;
  candidates: Candidate[];
  year: number | null;
  /** The series notes its editions carry (folded names), and the volume numbers in the asked series. */
  notes: Set<string>;
  numbers: Set<number>;
  companion: boolean;
}

/**
 * A work's key among the author's works: the core title without any series note, in the title or
 * not ("The Last Lantern (Ashfall Chronicles Book 3)" is "The Last Lantern"), a volume the title
 * itself prints kept ("Naruto, Vol. 2"), and the first author's surname.
 */
function workKeyOf(candidate: Candidate): string {
  const parts = titleParts(candidate);
  const printed = titleVolume(candidate.title);
  const number = printed?.titled && !parts.core.includes(String(printed.number)) ? ` ${printed.number}` : '';
  return `${parts.coreText}${number}|${firstSurname(candidate.authors)}`;
}

/** Editions gathered into works: by title and author, and by a shared ISBN or Open Library work. */
function worksOf(candidates: readonly Candidate[], words: string): Work[] {
  const works = new Map<string, Work>();
  const byId = new Map<string, string>();
  for (const c of candidates) {
    const ids = [
      c.record.isbn13 ? `isbn:${c.record.isbn13}` : '',
      c.record.workKey ? `work:${c.record.workKey}` : '',
    ];
    const key = ids.map((id) => byId.get(id)).find(Boolean) ?? workKeyOf(c);
    for (const id of ids) if (id && !byId.has(id)) byId.set(id, key);
    const work = works.get(key) ?? {
      key,
      candidates: [],
      year: null,
      notes: new Set<string>(),
      numbers: new Set<number>(),
      companion: false,
    };
    work.candidates.push(c);
    const year = yearOf(c.record);
    if (year !== null) work.year = work.year === null ? year : Math.min(work.year, year);
    const note = titleParts(c).series;
    if (note && !c.seriesInferred) work.notes.add(note.name.join(' '));
    const own = noteOf(c);
    if (own && own.name.join(' ') === words && own.number !== null) work.numbers.add(own.number);
    if (titleParts(c).companion.length > 0 || note?.range) work.companion = true;
    works.set(key, work);
  }
  return [...works.values()];
}

/** A volume placed by its order among its author's works: the series note it is shown with. */
export interface PlacedVolume {
  candidate: Candidate;
  /** "Cormoran Strike, #2". */
  series: string;
}

/**
 * The volume asked for, from the author's works (`answer`, complete: shorter than asked) and the
 * candidates already found, by first publication: the placed volumes just below and above the
 * one asked bound a span of years, and the author's works in that span, apart from the placed
 * volumes and the works another series claims, must be exactly the volumes between (two placed as
 * 1 and 3 leave one work between them; the first volume asked below a placed 2, one work before
 * it). Both ways must agree: the placed volumes' years rise with their numbers, no other work
 * shares a bounding volume's year, the works between differ in year. A volume above every placed
 * one is never guessed (the author's next book may be anything). Null when anything is unsure.
 */
export function volumeByOrder(
  asked: SeriesAsked,
  candidates: readonly Candidate[],
  answer: readonly Candidate[],
  complete: boolean,
): PlacedVolume | null {
  if (!complete) return null;
  const author = foldText(asked.author);
  const byAuthor = answer.filter((c) => folded(c.authors).includes(author));
  const works = worksOf(
    [...candidates.filter((c) => noteOf(c)?.name.join(' ') === asked.words), ...byAuthor],
    asked.words,
  );
  const placed = new Map<number, Work>();
  for (const work of works) {
    for (const number of work.numbers) {
      if (placed.has(number) || work.numbers.size > 1) return null;
      placed.set(number, work);
    }
  }
  if (placed.has(asked.wanted)) return null;
  const numbers = [...placed.keys()].sort((a, b) => a - b);
  const years = numbers.map((n) => placed.get(n)?.year ?? null);
  // The placed volumes' years must rise with their numbers (no prequel written later, no unknown year).
  for (let i = 0; i < years.length; i++) {
    const year = years[i];
    const before = i > 0 ? years[i - 1] : null;
    if (year === null || year === undefined || (before !== null && before !== undefined && before >= year))
      return null;
  }
  const lower = numbers.filter((n) => n < asked.wanted).at(-1) ?? 0;
  const upper = numbers.find((n) => n > asked.wanted);
  if (upper === undefined) return null;
  const from = lower > 0 ? (placed.get(lower)?.year ?? null) : Number.NEGATIVE_INFINITY;
  const to = placed.get(upper)?.year ?? null;
  if (from === null || to === null) return null;
  const others = works.filter(
    (work) =>
      work.numbers.size === 0 && !work.companion && ![...work.notes].some((name) => name !== asked.words),
  );
  // A work of unknown year, or of a bounding volume's year, could fall on either side.
  if (others.some((work) => work.year === null || work.year === from || work.year === to)) return null;
  const between = others
    .filter((work) => (work.year ?? 0) > from && (work.year ?? 0) < to)
    .sort((a, b) => (a.year ?? 0) - (b.year ?? 0));
  if (between.length !== upper - lower - 1) return null;
  if (new Set(between.map((work) => work.year)).size !== between.length) return null;
  const work = between[asked.wanted - lower - 1];
  // The edition shown: the first the answer gives (the chain's order of trust), else a candidate's.
  const chosen = work?.candidates.find((c) => byAuthor.includes(c)) ?? work?.candidates[0];
  return chosen ? { candidate: chosen, series: `${asked.name}, #${asked.wanted}` } : null;
}
