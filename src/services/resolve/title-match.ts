import type { Requester } from '../../catalog/requester.js';
import { NUMBER_WORDS, VOLUME_WORDS } from '../../domain/series.js';
import { authorSurname, coreTitle, foldText } from '../../domain/text.js';
import { type SeriesNote, titleParts } from '../../domain/title-parts.js';
import type { Book } from '../../store/books.js';
import type { Candidate, SearchOutcome } from '../search/service.js';
import type { MayCreate } from '../write-limits.js';

/** What the resolver needs from the search service: its confident match, and the book behind it. */
export interface ConfidentTitleSearch {
  search(text: string, limit?: number, requester?: Requester): Promise<SearchOutcome>;
  bookFor(result: Candidate, mayCreate: MayCreate): Promise<Book | null>;
}

/** Store boilerplate in slugs that names a format, never part of which book it is. */
const FORMAT_WORDS = [
  'novel',
  'book',
  'books',
  'ebook',
  'kindle',
  'edition',
  'audiobook',
  'audio',
  'unabridged',
  'abridged',
  'hardcover',
  'hardback',
  'paperback',
  'softcover',
  'mass',
  'market',
];
export const FORMATS: ReadonlySet<string> = new Set(FORMAT_WORDS);
/** Format words and joiners: what a slug may hold beyond the book's own title and authors. */
const NOISE = new Set([...FORMAT_WORDS, 'a', 'an', 'the', 'and', 'of', 'or', 'by']);
/**
 * Short words some stores drop from their slugs (Amazon's "Three-Men-Boat-Jerome"): a title's core
 * need not show them in the URL. Every other word of the title must be there.
 */
export const DROPPED_WORDS: ReadonlySet<string> = new Set(['in', 'on', 'at', 'to', 'for', 'with', 'from']);
/** Joiners left at the end once format words are gone ("Project-Hail-Mary-A-Novel"). */
const TRAILING_JOINERS = new Set(['a', 'an', 'the', 'and', 'of', 'or', 'by']);

/** The words of a slug as a search query: no format words, no joiner left dangling at the end. */
export function slugQueryWords(titleWords: string): string[] {
  const kept = words(titleWords).filter((word) => !FORMATS.has(word));
  while (kept.length > 1 && TRAILING_JOINERS.has(kept.at(-1) ?? '')) kept.pop();
  return kept;
}

const words = (text: string) => foldText(text).split(' ').filter(Boolean);

/**
 * A second, stricter check on the search service's confident answer, because slug words are not a
 * query a person typed: the candidate's core title must appear whole in the URL words, and every
 * URL word must belong to the candidate's title, subtitle or authors (or be format boilerplate).
 * "Le Hobbit", "Der Hobbit Hoerbuch" or "the hobbit 2" therefore never land on "The Hobbit".
 */
export function slugNamesCandidate(titleWords: string, candidate: Candidate): boolean {
  const { record } = candidate;
  const url = words(titleWords).filter((word) => !NOISE.has(word));
  if (url.length === 0) return false;
  const urlSet = new Set(url);
  const core = words(coreTitle(record.title)).filter((word) => !NOISE.has(word) && !DROPPED_WORDS.has(word));
  if (core.length === 0 || !core.every((word) => urlSet.has(word))) return false;
  const known = new Set(words(`${record.title} ${record.subtitle ?? ''} ${record.authors.join(' ')}`));
  const series = seriesWords(titleParts(candidate).series);
  return url.every((word) => known.has(word) || series.has(word));
}

/**
 * The words a slug may add from the book's series ("catching-fire-the-hunger-games-book-2"): the
 * series' name, a volume word and the book's own number, never another volume's.
 */
export function seriesWords(series: SeriesNote | null): ReadonlySet<string> {
  if (!series || series.number === null || series.range || series.fractional) return new Set();
  const number = series.number;
  return new Set([
    ...series.name,
    ...VOLUME_WORDS,
    'vol',
    'no',
    String(number),
    ...(NUMBER_WORDS[number - 1] ? [NUMBER_WORDS[number - 1] ?? ''] : []),
  ]);
}

/** Whether the URL words name more than the title: one of the authors' surnames or the series. */
function slugNamesMore(titleWords: string, candidate: Candidate): boolean {
  const url = new Set(words(titleWords));
  const surnames = candidate.record.authors.map(authorSurname).flatMap((name) => name.split(' '));
  if (surnames.some((surname) => surname.length > 1 && url.has(surname))) return true;
  const series = titleParts(candidate).series;
  const name = series?.name.filter((word) => !NOISE.has(word)) ?? [];
  return name.length > 0 && name.every((word) => url.has(word));
}

/** Whether the author the URL names apart (Hive, ThriftBooks) is one of the candidate's authors. */
function authorAgrees(authorWords: string | null, candidate: Candidate): boolean {
  if (!authorWords) return true;
  const named = new Set(words(authorWords));
  return candidate.record.authors.some((author) => named.has(authorSurname(author).split(' ').at(-1) ?? ''));
}

/** The candidate a URL's title words name, only when the search is confident and the words agree. */
export async function confidentTitleCandidate(
  search: ConfidentTitleSearch,
  titleWords: string,
  authorWords: string | null = null,
  requester: Requester = null,
): Promise<Candidate | null> {
  // Format words would only blur the query ("…-Hardcover"); joiners like "by" help it read the author.
  const query = slugQueryWords(titleWords).join(' ');
  if (!query) return null;
  const outcome = await search.search(query, 5, requester);
  if (outcome.query.kind !== 'text') return null;
  // The ranking is unsure of words a person would not type ("catching fire hunger games"), but a
  // slug that names the top result's author or series as well as its whole title is evidence enough.
  const top = outcome.results[0];
  const confident = outcome.confident ?? (top && slugNamesMore(titleWords, top) ? top : null);
  if (!confident || !slugNamesCandidate(titleWords, confident)) return null;
  // A slug that another work's title and authors explain as well ("the-lost-world": Doyle's and
  // Crichton's) names neither, however sure the ranking is.
  const rivals = outcome.results.filter(
    (other) => other.groupKey !== confident.groupKey && slugNamesCandidate(titleWords, other),
  );
  if (rivals.length > 0) return null;
  return authorAgrees(authorWords, confident) ? confident : null;
}
