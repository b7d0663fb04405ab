import { parseIsbn } from '../isbn.js';
import { findIsbn13, ISBN_PARAMS, isNonBookEan } from './isbn-params.js';
import { scanUrlForIsbn, searchWords } from './isbn-scan.js';
import { slugWords } from './slug.js';
import type { Draft, ParsedRetailerUrl, PathGroups, PathRule, StoreRule } from './types.js';
import { allParams, canonicalHost, decodePath, untrackedParams } from './url-input.js';

/**
 * Pages every store has that are certainly not a book: home, search, basket, account, help.
 * Checked after the store's own patterns so a store can still claim e.g. `/search/isbn/978…`.
 */
const GENERIC_NOT_BOOK =
  /^\/(?:[a-z]{2}(?:[-_][a-z]{2})?\/){0,2}(?:(?:index\.html?)?|s|search(?:results?)?|cart|basket|account|my-?account|login|signin|register|help|wishlist|gift-?cards?|blog|stores?|category|categories|bestsellers?|deals)(?:[/?.].*)?$/i;

export function applyRule(rule: StoreRule, url: URL, hostCountry: string | null): ParsedRetailerUrl {
  const rawPath = decodePath(url.pathname);
  const path = rule.cleanPath ? rule.cleanPath(rawPath) : rawPath;
  const params = allParams(url);
  const draft: Draft = {
    store: rule.store,
    country: hostCountry,
    kind: 'unknown',
    isbn: null,
    identifiers: {},
    titleWords: null,
    authorWords: null,
    nonBook: false,
    canonicalPath: url.pathname,
    canonicalQuery: [],
    canonicalHost: canonicalHost(url.hostname),
  };
  let matched: PathRule | null = null;
  let groups: PathGroups = {};
  for (const pattern of rule.patterns) {
    const match = pattern.path.exec(path);
    if (!match) continue;
    matched = pattern;
    groups = (match.groups ?? {}) as PathGroups;
    break;
  }
  if (matched) readPattern(draft, matched, groups, params, url.searchParams);
  else if (GENERIC_NOT_BOOK.test(path)) draft.kind = 'not_book';
  // Book pages keep only the parameters a pattern names (a whitelist outlives new tracking schemes);
  // other pages, such as searches, keep everything that is not known tracking.
  if (!matched || draft.kind === 'not_book') draft.canonicalQuery = untrackedParams(url);
  readIsbnParams(draft, params, url.searchParams);
  rule.refine?.(draft, { url, path, params, rule: matched, groups });
  if (!rule.shortLink) readAnyIsbn(draft, url, rule.searchParams ?? []);
  return finish(draft, Boolean(rule.shortLink));
}

/**
 * What the store's table did not read, the generic scan may: an ISBN anywhere in the URL ties even
 * a search page to its book, but never a product the URL shows is something else (a DVD).
 */
function readAnyIsbn(draft: Draft, url: URL, searchParams: readonly string[]): void {
  if (draft.nonBook) {
    draft.kind = 'not_book';
    return;
  }
  if (!draft.isbn) {
    const identified = Object.keys(draft.identifiers).length > 0;
    const isbn = scanUrlForIsbn(url, { identified });
    if (isbn) {
      draft.isbn = isbn;
      if (draft.kind === 'not_book') draft.kind = 'book';
    }
  }
  // A search page offers the words it was asked, for the search a reader lands on instead.
  if (draft.kind === 'not_book' && !draft.titleWords)
    draft.titleWords = askedWords(url, searchParams) ?? searchWords(url);
}

/** The words in the store's own search parameter, when it has one the generic scan does not know. */
function askedWords(url: URL, names: readonly string[]): string | null {
  for (const name of names) {
    const value = url.searchParams.get(name)?.trim();
    if (value && /\p{L}/u.test(value)) return value.slice(0, 200);
  }
  return null;
}

function readPattern(
  draft: Draft,
  pattern: PathRule,
  groups: PathGroups,
  params: URLSearchParams,
  query: URLSearchParams,
): void {
  draft.kind = pattern.kind ?? 'book';
  if (pattern.nonBook) draft.nonBook = true;
  if (groups.country) {
    const code = groups.country.slice(0, 2).toUpperCase();
    // "ww" (Kobo's worldwide store) and similar are not countries.
    draft.country = code === 'WW' ? null : code;
  }
  if (pattern.id && groups.id) draft.identifiers[pattern.id] = groups.id;
  if (groups.isbn) draft.isbn = parseIsbn(groups.isbn);
  if (!draft.isbn && pattern.isbnInSlug && groups.slug) draft.isbn = findIsbn13(groups.slug);
  readTitleAndAuthor(draft, pattern, groups);
  for (const [param, scheme] of Object.entries(pattern.query ?? {})) {
    const value = params.get(param)?.trim();
    if (!value) continue;
    // Values read from the fragment (ThriftBooks' #isbn=) stay out of the canonical query.
    if (query.has(param)) draft.canonicalQuery.push([param, value]);
    if (scheme === 'isbn') draft.isbn ??= parseIsbn(value);
    else draft.identifiers[scheme] = value;
  }
}

/** Title words, and the author's apart when the URL separates them (a path segment or a mark). */
function readTitleAndAuthor(draft: Draft, pattern: PathRule, groups: PathGroups): void {
  draft.titleWords = slugWords(groups.slug, pattern.slugNoise);
  const author = pattern.authorSeparator ? splitOnce(groups.slug, pattern.authorSeparator)[1] : groups.author;
  draft.authorWords = draft.titleWords ? slugWords(author) : null;
}

function splitOnce(slug: string | undefined, separator: RegExp): [string | undefined, string | undefined] {
  if (!slug) return [undefined, undefined];
  const match = separator.exec(slug);
  if (!match) return [slug, undefined];
  return [slug.slice(0, match.index), slug.slice(match.index + match[0].length)];
}

/** ISBN/EAN parameters mean the same on every store, even on pages no pattern knows. */
function readIsbnParams(draft: Draft, params: URLSearchParams, query: URLSearchParams): void {
  for (const name of ISBN_PARAMS) {
    const value = params.get(name);
    if (!value) continue;
    const isbn = parseIsbn(value);
    if (isbn) {
      draft.isbn ??= isbn;
      const kept = draft.canonicalQuery.some(([key]) => key === name);
      if (query.has(name) && !kept) draft.canonicalQuery.push([name, value]);
      // A checksum-valid ISBN parameter names the book even on a search page ("?isbn=…").
      draft.kind = 'book';
    } else if (isNonBookEan(value) && !draft.isbn) {
      draft.kind = 'not_book';
      draft.nonBook = true;
    }
  }
}

function finish(draft: Draft, shortLink: boolean): ParsedRetailerUrl {
  if (draft.isbn && draft.kind === 'unknown') draft.kind = 'book';
  // A page shape alone is no evidence: "/books?q=…" matched but names no volume.
  const identified = draft.isbn !== null || Object.keys(draft.identifiers).length > 0;
  if (draft.kind === 'book' && !identified) draft.kind = 'unknown';
  const canonical = new URL(`https://${draft.canonicalHost}`);
  canonical.pathname = draft.canonicalPath;
  for (const [key, value] of draft.canonicalQuery) canonical.searchParams.append(key, value);
  return {
    store: draft.store,
    country: draft.country,
    kind: shortLink ? 'unknown' : draft.kind,
    isbn: draft.isbn,
    identifiers: draft.identifiers,
    titleWords: draft.titleWords,
    authorWords: draft.authorWords,
    canonicalUrl: canonical.toString(),
    needsExpansion: shortLink,
  };
}
