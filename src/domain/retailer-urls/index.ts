import { AMAZON } from './amazon.js';
import { AUDIO_STORES } from './audio.js';
import { CATALOGUES } from './catalogues.js';
import { DIGITAL_PLATFORMS } from './digital.js';
import { applyRule } from './engine.js';
import { EUROPE_STORES } from './europe.js';
import { FREE_LIBRARIES } from './free.js';
import { scanUrlForIsbn, searchWords } from './isbn-scan.js';
import { LOCAL_SHOPS } from './local-shops.js';
import { MARKETPLACES } from './marketplaces.js';
import { PACIFIC_ASIA_STORES } from './pacific-asia.js';
import { slugWords } from './slug.js';
import type { ParsedRetailerUrl, StoreRule } from './types.js';
import { UK_STORES } from './uk.js';
import { canonicalHost, decodePath, toUrl, untrackedParams } from './url-input.js';
import { US_STORES } from './us.js';

export type { ParsedRetailerUrl, UrlKind } from './types.js';

export const STORE_RULES: readonly StoreRule[] = [
  ...AMAZON,
  ...AUDIO_STORES,
  ...CATALOGUES,
  ...FREE_LIBRARIES,
  ...DIGITAL_PLATFORMS,
  ...US_STORES,
  ...UK_STORES,
  ...EUROPE_STORES,
  ...PACIFIC_ASIA_STORES,
  ...MARKETPLACES,
  ...LOCAL_SHOPS,
];

interface HostEntry {
  rule: StoreRule;
  country: string | null;
}

// Host → rule, built once. A host like "uk.bookshop.org" must beat "bookshop.org", so lookups walk
// from the full hostname towards its parent domains and stop at the first (longest) entry.
const HOSTS = new Map<string, HostEntry>();
for (const rule of STORE_RULES) {
  for (const [host, country] of Object.entries(rule.hosts)) {
    if (HOSTS.has(host)) throw new Error(`retailer-urls: host ${host} is claimed twice`);
    HOSTS.set(host, { rule, country });
  }
}

function findHost(hostname: string): HostEntry | null {
  const labels = hostname.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const entry = HOSTS.get(labels.slice(i).join('.'));
    if (entry) return entry;
  }
  return null;
}

/**
 * Reads a pasted retailer or catalogue URL: which store, which book identifiers, which title words.
 * Pure: never fetches. Returns null for text that is not an http(s) URL.
 */
export function parseRetailerUrl(input: string): ParsedRetailerUrl | null {
  const url = toUrl(input);
  if (!url) return null;
  const entry = findHost(url.hostname);
  if (entry) return applyRule(entry.rule, url, entry.country);
  return parseUnknownHost(url);
}

/**
 * An unknown shop can still name the book: a checksum-valid ISBN anywhere in the URL (see
 * isbn-scan.ts). Otherwise its words: what its search page was asked, or a title-like slug in its
 * path (see `pathWords`).
 */
function parseUnknownHost(url: URL): ParsedRetailerUrl {
  const isbn = scanUrlForIsbn(url, { identified: false });
  // Set the path separately: a path starting "//" would otherwise be read as a new host.
  const canonical = new URL(`https://${canonicalHost(url.hostname)}`);
  canonical.pathname = url.pathname;
  for (const [key, value] of untrackedParams(url)) canonical.searchParams.append(key, value);
  const searched = isbn ? null : searchWords(url);
  // A shop's film, music or games section names no book, whatever its slug says.
  const elsewhere = !isbn && NON_BOOK_SECTION.test(decodePath(url.pathname));
  return {
    store: 'unknown',
    country: null,
    kind: isbn ? 'book' : elsewhere ? 'not_book' : 'unknown',
    isbn,
    identifiers: {},
    titleWords: isbn ? null : (searched ?? pathWords(url)),
    ...(searched ? { searchedWords: true } : {}),
    canonicalUrl: canonical.toString(),
    needsExpansion: false,
  };
}

const NON_BOOK_SECTION =
  /\/(?:movies?|films?|dvds?|blu-?ray|music|albums?|vinyl|games?|video-?games|tv|tv-shows?|toys?|apps?)(?:\/|$)/i;

const letterWords = (words: string) => words.split(' ').filter((word) => /\p{L}{2}/u.test(word)).length;

/**
 * The general reading of a path no store table knows: its last slug of two or more words ("/about"
 * names a page, not a book), or a one-word title with the name before it when that segment reads
 * like a name of two to four words (a publisher's "/titles/bram-stoker/dracula/"). Which is title and
 * which author is left to the check that the found book accounts for every word.
 */
function pathWords(url: URL): string | null {
  const segments = decodePath(url.pathname).split('/').filter(Boolean);
  for (let i = segments.length - 1; i >= 0; i--) {
    const words = slugWords(segments[i]);
    if (!words || letterWords(words) === 0) continue;
    if (letterWords(words) >= 2) return words;
    const before = slugWords(segments[i - 1]);
    const named = before && !/\d/.test(before) ? letterWords(before) : 0;
    if (named >= 2 && named <= 4) return `${before} ${words}`;
  }
  return null;
}
