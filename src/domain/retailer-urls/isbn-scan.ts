import { type Isbn, parseIsbn } from '../isbn.js';
import { TRACKING } from './url-input.js';

/**
 * The generic ISBN reader behind every URL, known shop or not: what a store's own table does not
 * read, this finds, in tiers of decreasing trust. The first tier that names exactly one ISBN wins;
 * a tier naming two different ISBNs names none (a "related books" link is no reason to guess).
 *
 * 1. A parameter whose name says ISBN or EAN (`isbn`, `field-isbn`, `ean13`, …): ISBN-10 or -13.
 * 2. An ISBN-13 token in the path (`/book/-9780…`, `/p/9780…`, `…-by-author-9780….html`).
 * 3. An ISBN-13 token in another parameter's value (`ProductID=9780…`, `search_term=9791…`).
 * 4. (only when the store named nothing else) a whole search value that is an ISBN-10
 *    (`?query=0071148167`), or a path segment that is an ISBN-10 after a search or ISBN segment
 *    (`/search/term/0071148167`, `/isbn/0140328726.json`) or written with ISBN hyphens.
 *
 * ISBN-10s are trusted only there: any ten-digit id passes the check digit one time in eleven.
 * 979-0 numbers are ISMNs (printed music), never books' ISBNs.
 */

const ISBN13_TOKEN = /(?<![\dX])(97[89](?:[-‐ ]?\d){10})(?!\d)/gi;
const ISBN_PARAM_NAME = /(?:^|[-_.])(?:isbn(?:1[03])?|ean(?:13)?)$/i;
const SEARCH_PARAM_NAME =
  /^(?:q|k|s|w|query|term|text|keywords?|field-keywords|search|search_?term|searchterm|searchtext|kw|qs)$/i;
const SEARCH_SEGMENT = /^(?:isbn(?:1[03])?|ean|term|search|searches|query|q|s|keyword|keywords|find)$/i;
const HYPHENATED_ISBN10 = /^\d{1,5}-\d{1,7}-\d{1,7}-[\dX]$/i;
const EXTENSION = /\.(?:json|html?|aspx?|php|xml|rdf)$/i;

const isBookIsbn = (isbn: Isbn | null): isbn is Isbn => isbn !== null && !isbn.isbn13.startsWith('9790');

/** One ISBN when the candidates agree, else null (none, or two different books). */
function single(candidates: readonly Isbn[]): Isbn | null {
  const distinct = new Set(candidates.map((isbn) => isbn.isbn13));
  return distinct.size === 1 ? (candidates[0] ?? null) : null;
}

function isbn13Tokens(text: string): Isbn[] {
  return [...text.matchAll(ISBN13_TOKEN)].map((match) => parseIsbn(match[1] ?? '')).filter(isBookIsbn);
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Query and fragment pairs, without the ones that only track a visit or point at another product. */
function meaningfulParams(url: URL): [string, string][] {
  const pairs = [...url.searchParams];
  const fragment = url.hash.replace(/^#!?\/?/, '');
  if (fragment.includes('=')) pairs.push(...new URLSearchParams(fragment));
  return pairs.filter(([name]) => !TRACKING.test(name) && !/^(?:pd_rd|pf_rd|creative)/i.test(name));
}

function pathIsbn10(segments: readonly string[]): Isbn[] {
  const found: Isbn[] = [];
  segments.forEach((raw, i) => {
    const segment = raw.replace(EXTENSION, '');
    const after = SEARCH_SEGMENT.test(segments[i - 1] ?? '');
    if (!after && !HYPHENATED_ISBN10.test(segment)) return;
    if (!/^[\d-]{9,13}[\dX]$/i.test(segment)) return;
    const isbn = parseIsbn(segment);
    if (isbn?.isbn10 && isBookIsbn(isbn)) found.push(isbn);
  });
  return found;
}

export interface ScanOptions {
  /** The store already named the product (an ASIN, a shop id): only the strong tiers may add to it. */
  identified: boolean;
}

export function scanUrlForIsbn(url: URL, options: ScanOptions): Isbn | null {
  const params = meaningfulParams(url);
  const named = params
    .filter(([name]) => ISBN_PARAM_NAME.test(name))
    .map(([, value]) => parseIsbn(value))
    .filter(isBookIsbn);
  const segments = url.pathname.split('/').map(decode).filter(Boolean);
  const tiers: (() => Isbn[])[] = [
    () => named,
    () => isbn13Tokens(segments.join('/')),
    () => params.flatMap(([, value]) => isbn13Tokens(value)),
  ];
  if (!options.identified) {
    tiers.push(() => [
      ...params
        .filter(([name]) => SEARCH_PARAM_NAME.test(name))
        .map(([, value]) => parseIsbn(value))
        .filter(isBookIsbn),
      ...pathIsbn10(segments),
    ]);
  }
  for (const tier of tiers) {
    const candidates = tier();
    if (candidates.length > 0) return single(candidates);
  }
  return null;
}

/** The words a search page was asked (`?q=the+hobbit`, `/search/term/the-hobbit`), or null. */
export function searchWords(url: URL): string | null {
  for (const [name, value] of meaningfulParams(url)) {
    if (SEARCH_PARAM_NAME.test(name) && /\p{L}|\d{3}/u.test(value)) return value.trim().slice(0, 200);
  }
  const segments = url.pathname.split('/').map(decode).filter(Boolean);
  for (let i = 1; i < segments.length; i++) {
    if (!SEARCH_SEGMENT.test(segments[i - 1] ?? '')) continue;
    const words = (segments[i] ?? '')
      .replace(EXTENSION, '')
      .replace(/[-_+]+/g, ' ')
      .trim();
    if (/\p{L}/u.test(words) && !SEARCH_SEGMENT.test(words)) return words;
  }
  return null;
}
