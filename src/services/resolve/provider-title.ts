import { onBehalfOf, type Requester } from '../../catalog/requester.js';
import type { BookRecord, SearchQuery } from '../../catalog/types.js';
import { authorSurname, coreTitle, foldText, matchKey } from '../../domain/text.js';
import { titleParts } from '../../domain/title-parts.js';
import { DROPPED_WORDS, FORMATS, seriesWords, slugQueryWords } from './title-match.js';

/**
 * The provider search the resolver uses for title-and-author URLs: kept behind this one shape so
 * that the search service's own provider search can change without touching the resolver.
 */
export interface ProviderTitleSource {
  search(query: SearchQuery, signal?: AbortSignal): Promise<BookRecord[]>;
}

const JOINERS = new Set(['a', 'an', 'the', 'and', 'of', 'or', 'by']);
const MAX_AUTHOR_WORDS = 4;
const MAX_SPLITS = 4;

const wordsOf = (text: string) => foldText(text).split(' ').filter(Boolean);

export interface SlugWords {
  /** Every word the URL's slug holds (title, and the author when the slug has one). */
  titleWords: string;
  /** The author's words when the URL tells them apart (Hive, ThriftBooks, Dymocks). */
  authorWords?: string | null;
}

/**
 * The title/author readings of a slug worth asking a provider, most plausible first. Open Library's
 * search requires every word and corrects no spelling, so one big `q` fails whenever the split is
 * wrong: each reading is asked as `title` + `author`. Initials ("j r r") are left to the title
 * check; the author query keeps surname-like words only.
 */
export function slugSplits(slug: SlugWords): { title: string; author?: string }[] {
  const words = slugQueryWords(slug.titleWords);
  if (words.length === 0) return [];
  const author = slug.authorWords ? wordsOf(slug.authorWords) : [];
  const tail = words.slice(-author.length).join(' ');
  if (author.length > 0 && author.length < words.length && tail === author.join(' ')) {
    const title = words.slice(0, -author.length);
    if (title.at(-1) === 'by') title.pop();
    return [{ title: title.join(' '), author: surnameWords(author) || undefined }];
  }
  if (author.length > 0) return [{ title: words.join(' '), author: surnameWords(author) || undefined }];
  const splits: { title: string; author?: string }[] = [];
  const by = words.lastIndexOf('by');
  if (by > 0 && by < words.length - 1) {
    splits.push({ title: words.slice(0, by).join(' '), author: surnameWords(words.slice(by + 1)) });
  }
  for (let k = 1; k <= Math.min(MAX_AUTHOR_WORDS, words.length - 1); k++) {
    const surname = surnameWords(words.slice(-k));
    if (!surname) continue;
    splits.push({ title: words.slice(0, -k).join(' '), author: surname });
  }
  const seen = new Set<string>();
  const authored = splits.filter((split) => {
    const key = `${split.title}|${split.author ?? ''}`;
    if (!split.title || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  // The whole slug as a title always gets its turn: Kobo slugs hold the title only.
  return [...authored.slice(0, MAX_SPLITS - 1), { title: words.join(' ') }];
}

function surnameWords(words: readonly string[]): string {
  return words.filter((word) => word.length > 1 && !JOINERS.has(word)).join(' ');
}

/**
 * Whether a record and the URL's words agree both ways: the record's whole core title is in the
 * URL, every URL word belongs to its title, subtitle or authors (or is boilerplate), and when the
 * URL holds words beyond the title they include the record's author's surname.
 */
export function slugAgrees(slug: SlugWords, record: BookRecord): boolean {
  const url = wordsOf(slug.titleWords).filter((word) => !FORMATS.has(word) && !JOINERS.has(word));
  if (url.length === 0) return false;
  const urlSet = new Set(url);
  const core = wordsOf(coreTitle(record.title)).filter(
    (word) => !JOINERS.has(word) && !DROPPED_WORDS.has(word),
  );
  if (core.length === 0 || !core.every((word) => urlSet.has(word))) return false;
  const titleWords = new Set(wordsOf(`${record.title} ${record.subtitle ?? ''}`));
  const authorWords = new Set(wordsOf(record.authors.join(' ')));
  const series = seriesWords(
    titleParts({ title: record.title, series: record.identifiers.series ?? null, originalTitle: null })
      .series,
  );
  for (const word of series) titleWords.add(word);
  if (!url.every((word) => titleWords.has(word) || authorWords.has(word))) return false;
  const beyondTitle = url.some((word) => !titleWords.has(word));
  const surnames = record.authors
    .map(authorSurname)
    .flatMap((name) => name.split(' '))
    .filter(Boolean);
  const namedAuthor = slug.authorWords ? wordsOf(slug.authorWords) : [];
  if (namedAuthor.length > 0 && !namedAuthor.some((word) => surnames.includes(word))) return false;
  return !beyondTitle || surnames.some((surname) => urlSet.has(surname));
}

/**
 * The one edition the providers name for a title-and-author slug, or null. Every reading is asked
 * at once within the budget; the answers that agree with the URL must all be one work (a title-only
 * slug such as "dune" matching two authors' books names none). Of that work, an edition with an
 * ISBN is preferred, in the providers' order of trust.
 */
export async function providerTitleRecord(
  source: ProviderTitleSource,
  slug: SlugWords,
  timeoutMs: number,
  requester: Requester = null,
): Promise<BookRecord | null> {
  const splits = slugSplits(slug);
  if (splits.length === 0) return null;
  const signal = onBehalfOf(requester, AbortSignal.timeout(timeoutMs));
  const answers = await Promise.all(
    splits.map((split) =>
      source
        .search({ text: '', title: split.title, author: split.author, limit: 10 }, signal)
        .catch(() => []),
    ),
  );
  const agreeing = answers.flat().filter((record) => record.title && slugAgrees(slug, record));
  const works = new Set(agreeing.map((record) => matchKey(record.title, record.authors)));
  if (works.size !== 1) return null;
  return agreeing.find((record) => record.isbn13) ?? agreeing[0] ?? null;
}

/** Whether the slug holds the record's title only (no author word), so another book may share it. */
export function slugIsTitleOnly(slug: SlugWords, record: BookRecord): boolean {
  if (slug.authorWords) return false;
  const titleWords = new Set(wordsOf(`${record.title} ${record.subtitle ?? ''}`));
  return wordsOf(slug.titleWords)
    .filter((word) => !FORMATS.has(word) && !JOINERS.has(word))
    .every((word) => titleWords.has(word));
}

/**
 * Whether the providers know another work the slug names as well as `record`'s ("the-lost-world":
 * Doyle's and Crichton's). A provider that fails or is slow answers "no rival".
 */
export async function providersKnowRival(
  source: ProviderTitleSource,
  slug: SlugWords,
  record: BookRecord,
  timeoutMs: number,
  requester: Requester = null,
): Promise<boolean> {
  const title = wordsOf(slug.titleWords)
    .filter((word) => !FORMATS.has(word))
    .join(' ');
  if (!title) return false;
  const answers = await source
    .search({ text: '', title, limit: 10 }, onBehalfOf(requester, AbortSignal.timeout(timeoutMs)))
    .catch(() => []);
  const work = matchKey(record.title, record.authors);
  return answers.some((other) => slugAgrees(slug, other) && matchKey(other.title, other.authors) !== work);
}
