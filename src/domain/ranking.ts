import { scriptLanguage } from './languages.js';
import { getOrAdd, memoized } from './memo.js';
import type { TextQuery } from './query.js';
import { authorTokens, relevance, relevanceOf } from './relevance.js';
import { titleVolume } from './series.js';
import { coreTitle, firstSurname, foldText, matchKeyOf } from './text.js';
import { type TitleParts, titleParts } from './title-parts.js';

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

/** The core title; a volume the title prints after a separator ("… - Tome 3") keeps its number: volumes are works apart. */
const groupTitle = memoized((title: string) => {
  const core = coreTitle(title.replace(EDITION_NOTE, ''));
  const volume = core ? titleVolume(title) : null;
  return volume && !core.split(' ').includes(String(volume.number)) ? `${core} ${volume.number}` : core;
});
const groupSurname = memoized((author: string) => firstSurname([author]));

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
    const byAuthors = getOrAdd(read, parts, () => new Map<ReadonlySet<string>, number>());
    const value = getOrAdd(byAuthors, authors, () => relevanceOf(query, candidate, parts, authors));
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
/** A match good enough to skip the results page: a pin, or a near-exact top result well ahead. */
export function isConfident<T extends RankInput>(groups: readonly RankedGroup<T>[]): boolean {
  const [top, second] = groups;
  if (!top) return false;
  if (top.best.pinned || top.editions.some((e) => e.pinned)) return true;
  return top.relevance >= 0.9 && (!second || top.score - second.score >= 0.12);
}
