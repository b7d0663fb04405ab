import type { Requester } from '../../catalog/requester.js';
import { authorSurname, coreTitle, foldText } from '../../domain/text.js';
import type { Book } from '../../store/books.js';
import type { Candidate, SearchOutcome } from '../search.js';
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
  return url.every((word) => known.has(word));
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
  if (outcome.query.kind !== 'text' || !outcome.confident) return null;
  const { confident } = outcome;
  if (!slugNamesCandidate(titleWords, confident)) return null;
  // A slug that another work's title and authors explain as well ("the-lost-world": Doyle's and
  // Crichton's) names neither, however sure the ranking is.
  const rivals = outcome.results.filter(
    (other) => other.groupKey !== confident.groupKey && slugNamesCandidate(titleWords, other),
  );
  if (rivals.length > 0) return null;
  return authorAgrees(authorWords, confident) ? confident : null;
}
