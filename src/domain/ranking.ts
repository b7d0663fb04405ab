import { scriptLanguage } from './languages.js';
import { memoized } from './memo.js';
import type { QuerySplit, TextQuery } from './query.js';
import { NUMBER_WORDS, VOLUME_WORDS } from './series.js';
import { coreTitle, firstSurname, foldText, matchKeyOf } from './text.js';
import { type TitleParts, type TitleSource, titleParts, withoutArticle } from './title-parts.js';

/** What ranking needs to know about a candidate edition, whichever database or provider found it. */
export interface RankInput {
  title: string;
  authors: readonly string[];
  format: string | null;
  language: string | null;
  /** Editions sharing it are one work (match key, else work id, else the edition itself). */
  groupKey: string;
  popularity: number;
  clicks: number;
  pinned: boolean;
  /** Already a saved book with a slug. */
  saved: boolean;
  hasCover: boolean;
  /** The catalog's series note ("The Hunger Games, #2") when the title no longer carries it. */
  series?: string | null;
  /** The work's original title ("Harry Potter and the Philosopher's Stone"), when different. */
  originalTitle?: string | null;
  /**
   * An edition no one can be sent to: no ISBN at all, or a work its provider counts no edition of
   * (an Open Library stub). Never ahead of a real edition, unless pinned.
   */
  stub?: boolean;
}

export interface RankedGroup<T extends RankInput> {
  /** The edition to show and to create: the mainstream trade edition when the work has one. */
  best: T;
  editions: T[];
  /** How well the text matches, 0..1 (plus series bonus): comparable across queries. */
  relevance: number;
  /** relevance with popularity, clicks and pins: the order of the list. */
  score: number;
}

const STOP = new Set([
  'the',
  'a',
  'an',
  'of',
  'and',
  'in',
  'to',
  'on',
  'for',
  'de',
  'la',
  'le',
  'el',
  'der',
  'die',
  'das',
  'y',
  'et',
  'und',
]);
const NON_TRADE =
  /\blarge (?:print|type)\b|\baudio ?(?:book|cd)?\b|\bunabridged\b|\babridged\b|\blibrary binding\b|\bprebound\b|\bbraille\b|\bboard book\b/;
const FORMAT_PENALTY: Record<string, number> = {
  ebook: 0.1,
  audiobook: 0.4,
  'large-print': 0.4,
  'library-binding': 0.4,
  'board-book': 0.4,
  other: 0.2,
};
const SITE_LANGUAGES = new Set(['en', 'eng']);

const EDITION_NOTE =
  /\s*[([][^()[\]]*\b(?:edition|print|audio\w*|unabridged|abridged|binding|prebound|narrated|cd|mp3|paperback|hardcover|kindle|ebook|translation|translated)\b[^()[\]]*[)\]]/gi;

/**
 * The key editions of one work share: `matchKey` of the title without edition notes, so
 * "Dune (Large Print Edition)" and "Dune [Audiobook]" group with "Dune".
 */
export function workGroupKey(title: string, authors: readonly string[]): string | null {
  // `matchKey`'s parts, each remembered: a search keys every edition it retrieves.
  return matchKeyOf(groupTitle(title), groupSurname(authors[0] ?? ''));
}

const groupTitle = memoized((title: string) => coreTitle(title.replace(EDITION_NOTE, '')));
const groupSurname = memoized((author: string) => firstSurname([author]));

/** Author words plus joined initials, so "jk rowling" meets "J.K. Rowling" (shared: never changed). */
function authorTokens(authors: readonly string[]): ReadonlySet<string> {
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

/** The three rows editDistance works in, kept between calls (it runs for every word pair ranked). */
let scratch = [new Int32Array(32), new Int32Array(32), new Int32Array(32)] as const;

/**
 * Optimal-string-alignment distance, giving up beyond `max` (typos are one or two edits). It runs
 * for every candidate word a search ranks or corrects, so it compares char codes in three reused
 * rows instead of building arrays per row.
 */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (scratch[0].length <= n) {
    const size = 2 * (n + 1);
    scratch = [new Int32Array(size), new Int32Array(size), new Int32Array(size)];
  }
  let [beforePrevious, previous, row] = scratch;
  for (let j = 0; j <= n; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const here = a.charCodeAt(i - 1);
    const before = i > 1 ? a.charCodeAt(i - 2) : -1;
    row[0] = i;
    let best = i;
    for (let j = 1; j <= n; j++) {
      const there = b.charCodeAt(j - 1);
      let value = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (here === there ? 0 : 1),
      );
      // A swap of neighbours is one edit.
      if (j > 1 && before === there && here === b.charCodeAt(j - 2))
        value = Math.min(value, (beforePrevious[j - 2] as number) + 1);
      row[j] = value;
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    [beforePrevious, previous, row] = [previous, row, beforePrevious];
  }
  return previous[n] as number;
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
export function relevance(
  query: TextQuery,
  candidate: Pick<RankInput, 'title' | 'authors'> & TitleSource,
): number {
  return relevanceOf(query, candidate, titleParts(candidate), authorTokens(candidate.authors));
}

/** `relevance` from the title's parts and the authors' words as read (the same objects for the same text). */
function relevanceOf(
  query: TextQuery,
  candidate: Pick<RankInput, 'title' | 'authors'>,
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

const nonTradeTitle = memoized((title: string) => NON_TRADE.test(foldText(title)));

/** 0 for a mainstream trade edition; more for large print, audio, library binding (SPEC 2.1). */
export function editionPenalty(candidate: Pick<RankInput, 'title' | 'format'>): number {
  const byFormat = candidate.format ? (FORMAT_PENALTY[candidate.format] ?? 0) : 0;
  const byTitle = nonTradeTitle(candidate.title) ? 0.4 : 0;
  return Math.max(byFormat, byTitle);
}

const popularityNorm = (value: number) => Math.min(1, Math.log10(1 + Math.max(0, value)) / 6);

/**
 * Popularity's share of the order: each tenfold counts .05, up to seven (ten million ratings).
 * Enough that among works matching the words about as well the famous one leads (4.6 million
 * ratings against 45 thousand is .1), too little to lift a book over one that matches clearly better.
 */
export const popularityBoost = (value: number) => 0.05 * Math.min(7, Math.log10(1 + Math.max(0, value)));

/**
 * The work's own language: the one most of its editions share (large print and audio editions
 * count, translations are few), popularity breaking ties. A popular translation does not win.
 */
function mainLanguageOf(editions: readonly RankInput[], asked: string | null): string | null {
  // A query in a script of its own (kana, Hangul) asks for the edition in that language.
  if (asked && editions.some((e) => e.language === asked)) return asked;
  const weight = new Map<string, number>();
  for (const e of editions) {
    if (!e.language) continue;
    // The site's language (English by default) settles a tie between one original and one translation.
    const site = SITE_LANGUAGES.has(e.language) ? 0.5 : 0;
    weight.set(e.language, (weight.get(e.language) ?? 0) + 1 + site + popularityNorm(e.popularity) / 10);
  }
  return [...weight.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** Articles that tell a title's language ("Der Hobbit", "El Hobbit", "Le Petit Prince"). */
const FOREIGN_ARTICLES = new Set(['der', 'die', 'das', 'le', 'la', 'les', 'el', 'los', 'las', 'il', 'lo']);

/**
 * "der hobbit" in a query: a foreign article and the word after it, which name the edition whose
 * title starts so (the German one) among editions of one work. Empty for most queries.
 */
function articledPhrases(query: TextQuery): ReadonlySet<string> {
  const phrases = new Set<string>();
  query.terms.forEach((term, i) => {
    const next = query.terms[i + 1];
    if (next && FOREIGN_ARTICLES.has(term)) phrases.add(`${term} ${next}`);
  });
  return phrases;
}

const foldedTitle = memoized((title: string) => foldText(title));

function startsWithPhrase(title: string, phrases: ReadonlySet<string>): boolean {
  const folded = foldedTitle(title);
  for (const phrase of phrases) if (folded === phrase || folded.startsWith(`${phrase} `)) return true;
  return false;
}

/** The edition a work is shown and created as: trade format, the work's main language, popular. */
function chooseEdition<T extends RankInput>(
  editions: T[],
  asked: string | null,
  articled: ReadonlySet<string>,
): T {
  const mainLanguage = mainLanguageOf(editions, asked);
  const named = (e: T) => (articled.size > 0 && startsWithPhrase(e.title, articled) ? 0.5 : 0);
  const quality = (e: T) =>
    named(e) -
    editionPenalty(e) -
    (e.stub ? 1 : 0) -
    (mainLanguage && e.language && e.language !== mainLanguage ? 0.3 : 0) +
    0.05 * popularityNorm(e.popularity) +
    (e.saved ? 0.02 : 0) +
    (e.hasCover ? 0.01 : 0) +
    (e.pinned ? 10 : 0);
  return editions.reduce((best, e) => (quality(e) > quality(best) ? e : best));
}

/** A candidate's text score for a query: relevance less a little for a non-trade edition. */
export function candidateScore(query: TextQuery, candidate: RankInput): number {
  return relevance(query, candidate) - 0.1 * editionPenalty(candidate);
}

/**
 * `candidateScore` for one query, once per candidate object (what it reads, title to format, must not
 * change while the scorer is used) and each title and authors read once: a work's editions mostly
 * share them (a popular work's hundreds of editions, a handful of titles), and relevance reads nothing
 * else. Title parts and author words are remembered objects, one per text, so they key what was read.
 */
export function queryScores(query: TextQuery): (candidate: RankInput) => number {
  const scores = new WeakMap<RankInput, number>();
  const read = new Map<TitleParts, Map<ReadonlySet<string>, number>>();
  return (candidate) => {
    const known = scores.get(candidate);
    if (known !== undefined) return known;
    const parts = titleParts(candidate);
    const authors = authorTokens(candidate.authors);
    let byAuthors = read.get(parts);
    if (!byAuthors) {
      byAuthors = new Map();
      read.set(parts, byAuthors);
    }
    let value = byAuthors.get(authors);
    if (value === undefined) {
      value = relevanceOf(query, candidate, parts, authors);
      byAuthors.set(authors, value);
    }
    const score = value - 0.1 * editionPenalty(candidate);
    scores.set(candidate, score);
    return score;
  };
}

/**
 * Orders candidates for a text query, one entry per work, best first. The same on every database.
 * `scoreOf` is `candidateScore` for this query; a caller ranking the same candidates twice may pass
 * one that remembers it.
 */
export function rankCandidates<T extends RankInput>(
  query: TextQuery,
  candidates: readonly T[],
  scoreOf: (candidate: T) => number = queryScores(query),
): RankedGroup<T>[] {
  const groups = new Map<string, { editions: T[]; relevance: number }>();
  const asked = scriptLanguage(query.raw);
  const articled = articledPhrases(query);
  for (const candidate of candidates) {
    const score = scoreOf(candidate);
    const group = groups.get(candidate.groupKey);
    if (group) {
      group.editions.push(candidate);
      group.relevance = Math.max(group.relevance, score);
    } else groups.set(candidate.groupKey, { editions: [candidate], relevance: score });
  }
  return [...groups.values()]
    .map(({ editions, relevance: rel }) => {
      const best = chooseEdition(editions, asked, articled);
      const popularity = Math.max(...editions.map((e) => e.popularity));
      const clicks = editions.reduce((sum, e) => sum + e.clicks, 0);
      const pinned = editions.some((e) => e.pinned);
      const score = rel + popularityBoost(popularity) + 0.04 * popularityNorm(clicks) + (pinned ? 10 : 0);
      return { best, editions, relevance: rel, score, stub: !pinned && editions.every((e) => e.stub) };
    })
    .sort((a, b) => Number(a.stub) - Number(b.stub) || b.score - a.score)
    .map(({ stub: _, ...group }) => group);
}

/**
 * Subtitle words that describe a book rather than name it: "A Novel", "A Memoir", "25th Anniversary
 * Edition", "Book Two". A subtitle of these words alone says nothing about which work it is.
 */
const DESCRIPTIVE = new Set([
  ...STOP,
  'novel',
  'novels',
  'novella',
  'memoir',
  'memoirs',
  'thriller',
  'romance',
  'mystery',
  'story',
  'stories',
  'tale',
  'tales',
  'poem',
  'poems',
  'play',
  'biography',
  'autobiography',
  'roman',
  'romanzo',
  'novela',
  'edition',
  'anniversary',
  'deluxe',
  'illustrated',
  'revised',
  'updated',
  'expanded',
  'annotated',
  'unabridged',
  'abridged',
  'classic',
  'classics',
  'special',
  'new',
  'book',
  'books',
  'volume',
  'vol',
  'part',
  'series',
  'trilogy',
  'saga',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'first',
  'second',
  'third',
]);

const SERIES_SUBTITLE = new RegExp(
  `(?:^|\\s)(?:vol|no|number|${VOLUME_WORDS.join('|')})\\s+(?:\\d+|${NUMBER_WORDS.slice(0, 10).join('|')})(?:\\s|$)` +
    '|(?:^|\\s)\\d+(?:st|nd|rd|th)?\\s+(?:book|volume|part)(?:\\s|$)',
);

/**
 * The folded subtitle when it names something ("The Return of the King"), null when it only
 * describes the book ("A Novel", "Book 2", "Anniversary Edition") or is empty.
 */
export function namingSubtitle(subtitle: string | null | undefined): string | null {
  const folded = subtitle ? foldText(subtitle) : '';
  // A series note ("Maze Runner, Book Two", "#3") places the book in its series, as a duplicate
  // record of the same work may do: it does not make it another book.
  if (SERIES_SUBTITLE.test(folded) || /#\s*\d/.test(subtitle ?? '')) return null;
  const naming = folded
    .split(' ')
    .some((word) => word && !DESCRIPTIVE.has(word) && !/^\d+(?:st|nd|rd|th)?$/.test(word));
  return naming ? folded : null;
}

/** A match good enough to skip the results page: a pin, or a near-exact top result well ahead. */
export function isConfident<T extends RankInput>(groups: readonly RankedGroup<T>[]): boolean {
  const [top, second] = groups;
  if (!top) return false;
  if (top.best.pinned || top.editions.some((e) => e.pinned)) return true;
  return top.relevance >= 0.9 && (!second || top.score - second.score >= 0.12);
}
