import { editDistance } from './edit-distance.js';
import { memoized } from './memo.js';
import type { QuerySplit, TextQuery } from './query.js';
import { RANKING_STOP_WORDS as STOP } from './stop-words.js';
import { foldText } from './text.js';
import { type TitleParts, type TitleSource, titleParts, withoutArticle } from './title-parts.js';

/** What relevance reads of an edition: its title and its authors. */
export interface Named {
  title: string;
  authors: readonly string[];
}

/** Author words plus joined initials, so "jk rowling" meets "J.K. Rowling" (shared: never changed). */
export function authorTokens(authors: readonly string[]): ReadonlySet<string> {
  return authors.length === 1 ? oneAuthorTokens(authors[0] ?? '') : manyAuthorTokens(JSON.stringify(authors));
}

const oneAuthorTokens = memoized((author: string) => readAuthorTokens([author]));
const manyAuthorTokens = memoized((json: string) => readAuthorTokens(JSON.parse(json) as string[]));

function readAuthorTokens(authors: readonly string[]): ReadonlySet<string> {
  const tokens = new Set<string>();
  for (const author of authors) {
    const words = foldText(author).split(' ').filter(Boolean);
    for (const word of words) tokens.add(word);
    const initials = words.filter((word) => word.length === 1).join('');
    if (initials.length > 1) tokens.add(initials);
  }
  return tokens;
}

/** How well one query word meets a set of words: exact 1, prefix of the last word .85, typos .8/.6. */
function wordMatch(term: string, words: Iterable<string>, last: boolean): number {
  let best = 0;
  // Typos count in words, not in numbers.
  const allowed = !/\D/.test(term) ? 0 : term.length >= 8 ? 2 : term.length >= 4 ? 1 : 0;
  for (const word of words) {
    if (word === term) return 1;
    if (last && term.length >= 3 && word.startsWith(term)) best = Math.max(best, 0.85);
    if (allowed > 0) {
      const distance = editDistance(term, word, allowed);
      if (distance <= allowed) best = Math.max(best, distance === 1 ? 0.8 : 0.6);
    }
  }
  return best;
}

const weight = (term: string) => (STOP.has(term) ? 0.25 : 1);

/** Significant words only, so "pride prejudice" reads as "Pride and Prejudice". */
const significantText = (text: string) =>
  text
    .split(' ')
    .filter((word) => word && !STOP.has(word))
    .join(' ');

/**
 * How the words a reading matched relate to a title: the whole title 1 (.97 without its small
 * words), the core title without subtitle .95 (`coreMatch`), else by the share of the title's
 * words matched, with a little for a title that starts with the query. A subtitle-less match is
 * what "Harry Potter: Film Wizardry" makes of "harry potter": popularity must still let the famous
 * book that merely starts with the query ahead of it.
 */
function titleShape(matched: string, title: TitleText, coreMatch = 0.95): number {
  const text = withoutArticle(matched);
  if (!text) return 0;
  if (text === title.fullText) return 1;
  if (significantText(text) === significantText(title.fullText)) return 0.97;
  if (text === title.coreText) return coreMatch;
  const words = new Set(text.split(' '));
  const significant = title.core.filter((word) => !STOP.has(word));
  const precision = significant.length
    ? significant.filter((word) => words.has(word)).length / significant.length
    : 0;
  const starts = title.fullText.startsWith(`${text} `) ? 0.05 : 0;
  return Math.min(0.92, 0.7 + 0.2 * precision + starts);
}

type TitleText = Pick<TitleParts, 'core' | 'coreText' | 'fullText'>;

/** The title word a query word matched, so "great gatsbby" compares as "great gatsby". */
function matchedWord(term: string, words: Iterable<string>, last: boolean): string {
  let best = term;
  let bestScore = 0;
  for (const word of words) {
    const score = wordMatch(term, [word], last);
    if (score > bestScore) [best, bestScore] = [word, score];
  }
  return best;
}

interface Reading {
  /** Weighted share of the query's words found, 0..1. */
  coverage: number;
  /** The title words the reading matched, in query order. */
  matched: string;
}

function readTitle(split: QuerySplit, parts: TitleParts, authors: ReadonlySet<string>): Reading {
  const titleTerms = split.title.split(' ').filter(Boolean);
  const matched: string[] = [];
  let got = 0;
  let total = 0;
  titleTerms.forEach((term, i) => {
    const last = i === titleTerms.length - 1 && !split.author;
    const inTitle = wordMatch(term, parts.all, last);
    const inAuthor = split.author ? 0 : wordMatch(term, authors, last);
    // A word that names the author ("hobbit tolkien") leaves the title reading exact.
    if (inTitle >= inAuthor && inTitle > 0) matched.push(matchedWord(term, parts.all, last));
    else if (inAuthor === 0) matched.push(term);
    got += weight(term) * Math.max(inTitle, inAuthor);
    total += weight(term);
  });
  return { coverage: total > 0 ? got / total : 0, matched: matched.join(' ') };
}

interface Scored {
  value: number;
  /** The reading names the whole title: a boxed set called what the reader typed is what they want. */
  exact: boolean;
}

/** Scores one reading of the query against one edition, 0..1. */
function splitRelevance(split: QuerySplit, parts: TitleParts, authors: ReadonlySet<string>): Scored {
  const reading = readTitle(split, parts, authors);
  let coverage = reading.coverage;
  if (split.author) {
    const authorTerms = split.author.split(' ').filter(Boolean);
    const authorGot = authorTerms.reduce(
      (sum, term, i) => sum + wordMatch(term, authors, i === authorTerms.length - 1),
      0,
    );
    coverage = 0.65 * coverage + 0.35 * (authorTerms.length ? authorGot / authorTerms.length : 0);
  }
  let shape = titleShape(reading.matched, parts);
  // An original title's main part ("Dune" of "Dune: House Atreides") is not that book's name.
  if (parts.original) shape = Math.max(shape, titleShape(reading.matched, parts.original, 0.85));
  return { value: coverage * Math.max(shape, seriesShape(reading.matched, parts)), exact: shape >= 0.97 };
}

/** Relevance of a volume when the query names its series ("harry potter", "discworld"): below any exact title. */
const SERIES_VOLUME = 0.85;
const SERIES_FIRST = 0.89;

/**
 * Whether the matched words name the candidate's series: each is a word of its name and they
 * cover at least half of it ("percy jackson" names "Percy Jackson and the Olympians").
 */
function namesSeries(matched: string, parts: TitleParts): boolean {
  const name = new Set(parts.series?.name.filter((word) => !STOP.has(word)) ?? []);
  const words = matched.split(' ').filter((word) => word && !STOP.has(word));
  return words.length > 0 && words.every((word) => name.has(word)) && words.length * 2 >= name.size;
}

/** A series named without a volume: its volumes rank by popularity, the first one ahead. */
function seriesShape(matched: string, parts: TitleParts): number {
  const series = parts.series;
  if (!series || series.range || series.fractional || !namesSeries(matched, parts)) return 0;
  return series.number === 1 ? SERIES_FIRST : SERIES_VOLUME;
}

/** Series numbers: the volume asked for gains, another volume or a boxed set of the series loses. */
function seriesAdjustment(query: TextQuery, parts: TitleParts): number {
  const wanted = query.seriesNumber;
  if (wanted === null) return 0;
  if (parts.core.includes(String(wanted))) return 0.05;
  const series = parts.series;
  if (!series || series.number === null) return -0.1;
  const named = query.terms.some((term) => series.name.includes(term));
  if (series.range) return series.range.from <= wanted && wanted <= series.range.to ? -0.15 : -0.25;
  if (series.number === wanted && !series.fractional) return named ? 0.3 : 0.1;
  return -0.25;
}

/** Companions, boxed sets and adaptations the query did not ask for rank below the work itself. */
function companionPenalty(query: TextQuery, parts: TitleParts, exact: boolean): number {
  const asked = ` ${query.key} `;
  const unasked = parts.companion.filter((marker) => !asked.includes(` ${marker} `));
  const bundle =
    parts.series?.range &&
    !exact &&
    !/\b(?:box|boxed|boxset|set|collection|omnibus|complete)\b/.test(query.key);
  if (unasked.length > 0 || bundle) return 0.12;
  return parts.series?.fractional ? 0.05 : 0;
}

/** Text relevance of one edition: the best reading, then series, companion and quoted-phrase rules. */
export function relevance(query: TextQuery, candidate: Named & TitleSource): number {
  return relevanceOf(query, candidate, titleParts(candidate), authorTokens(candidate.authors));
}

/** `relevance` from the title's parts and the authors' words as read (the same objects for the same text). */
export function relevanceOf(
  query: TextQuery,
  candidate: Named,
  parts: TitleParts,
  authors: ReadonlySet<string>,
): number {
  const scored = query.splits.map((split) => splitRelevance(split, parts, authors));
  const top = scored.reduce((a, b) => (b.value > a.value ? b : a));
  let best = top.value + seriesAdjustment(query, parts) - companionPenalty(query, parts, top.exact);
  if (query.phrases.length > 0) {
    const haystack = `${foldText(candidate.title)} ${foldText(candidate.authors.join(' '))}`;
    if (query.phrases.some((phrase) => !haystack.includes(phrase))) best *= 0.5;
  }
  return Math.max(0, best);
}
