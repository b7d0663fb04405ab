import { parseIsbn } from '../isbn.js';
import { AMAZON_HOSTS } from '../store-hosts.js';
import type { Draft, PathRule, RefineContext, StoreRule } from './types.js';

const ASIN = '(?<id>[A-Z0-9]{10})';
const END = '(?:[/?].*)?$';
const SLUG_NOISE =
  /(?:\s+(?:ebook|kindle edition|audible audiobook|audiobook|unabridged|paperback|hardcover))+$/i;

const PRODUCT = (shape: string): PathRule => ({
  path: new RegExp(`^${shape.replace('{asin}', ASIN)}${END}`, 'i'),
  kind: 'unknown',
  id: 'asin',
  slugNoise: SLUG_NOISE,
});

// Prime Video, music and devices share the ASIN space with books; these paths say which one it is.
const NOT_BOOK_PATHS: readonly PathRule[] = [
  { path: /^\/gp\/video\//i, kind: 'not_book', nonBook: true },
  { path: /^\/(?:gp\/)?music\//i, kind: 'not_book', nonBook: true },
  { path: /^\/(?:[^/]+\/)?b\/?$/i, kind: 'not_book' },
];

const PRODUCT_PATHS: readonly PathRule[] = [
  PRODUCT('/(?:(?<slug>[^/]+)/)?dp/(?:product/)?{asin}'),
  PRODUCT('/gp/product/(?:glance/)?{asin}'),
  PRODUCT('/gp/aw/d/{asin}'),
  PRODUCT('/exec/obidos/ASIN/{asin}'),
  PRODUCT('/exec/obidos/tg/detail/-/{asin}'),
  PRODUCT('/o/ASIN/{asin}'),
  PRODUCT('/(?:(?<slug>[^/]+)/)?product-reviews/{asin}'),
  PRODUCT('/gp/offer-listing/{asin}'),
  PRODUCT('/(?:(?<slug>[^/]+)/)?product/{asin}'),
];

// Browse nodes seen on product links. Book nodes confirm a Kindle ASIN is a book; the others show
// the product is something else. Sub-categories are too many to list, so unknown nodes decide nothing.
const BOOK_NODES = new Set([
  '283155',
  '133140011',
  '154606011',
  '18145289011',
  '266239',
  '341689031',
  '186606',
  '530886031',
  '301061',
  '672108031',
  '465392',
  '2250738051',
  '411663031',
  '818936031',
  '976389031',
]);
const NON_BOOK_NODES = new Set([
  '2625373011',
  '130',
  '2649512011',
  '5174',
  '172282',
  '468642',
  '165793011',
  '1055398',
  '7141123011',
  '229534',
  '2102313011',
  '283926',
  '229816',
  '560798',
  '284266',
  '255882',
  '562066',
  '468646',
]);
const NON_BOOK_SLUG =
  /(?:^|[-\s])(?:dvd|blu[-\s]?ray|4k[-\s]uhd|vinyl|lp|video[-\s]game|nintendo[-\s]switch|playstation|xbox)$/i;
/** Audible audiobooks on Amazon: a numeric ASIN there is Audible's id, not the ISBN of a book. */
const AUDIBLE_SLUG = /(?:^|[-\s])audible(?:$|[-\s])/i;
const BOOK_SLUG = /(?:^|[-\s])(?:ebook|kindle[-\s]edition|audiobook)(?:$|[-\s])/i;

function amazonKind(draft: Draft, asin: string, context: RefineContext): Draft['kind'] {
  const slug = context.groups.slug ?? '';
  const isbn = /^\d{9}[\dX]$/.test(asin) && !AUDIBLE_SLUG.test(slug) ? parseIsbn(asin) : null;
  const node = context.params.get('node') ?? context.params.get('rh')?.match(/n:(\d+)/)?.[1] ?? '';
  if (NON_BOOK_SLUG.test(slug) || NON_BOOK_NODES.has(node)) {
    draft.nonBook = true;
    return 'not_book';
  }
  if (isbn) {
    draft.isbn = isbn;
    return 'book';
  }
  // "tmm_kin_swatch", "tmm_pap_swatch": the format switcher that only book pages carry.
  const ref = `${context.url.pathname} ${context.params.get('ref') ?? ''} ${context.params.get('ref_') ?? ''}`;
  if (BOOK_SLUG.test(slug) || BOOK_NODES.has(node) || /tmm_|kindle|kinw|dbs_/i.test(ref)) return 'book';
  return 'unknown';
}

function refineAmazon(draft: Draft, context: RefineContext): void {
  const asin = context.groups.id?.toUpperCase();
  const host = context.url.hostname
    .replace(/^.*?(amazon\.|amzn\.)/, '$1')
    .replace(/^amzn\.com$/, 'amazon.com');
  draft.canonicalHost = `www.${host}`;
  if (!asin || context.rule?.id !== 'asin') return;
  draft.canonicalQuery = [];
  draft.identifiers.asin = asin;
  draft.canonicalPath = `/dp/${asin}`;
  draft.kind = amazonKind(draft, asin, context);
}

/** `/ref=…` path segments and the `/-/es/` language prefix say nothing about the product. */
function cleanAmazonPath(path: string): string {
  return path.replace(/\/ref=[^/]*.*$/i, '').replace(/^\/-\/[a-z]{2}(?:[-_][a-z]{2})?(?=\/)/i, '');
}

export const AMAZON: readonly StoreRule[] = [
  {
    store: 'amazon',
    hosts: AMAZON_HOSTS,
    patterns: [...NOT_BOOK_PATHS, ...PRODUCT_PATHS, { path: /^\/(?:gp|hz)\//i, kind: 'not_book' }],
    cleanPath: cleanAmazonPath,
    refine: refineAmazon,
  },
  {
    // amzn.com/<ASIN> is Amazon's old US short form; unlike amzn.to it carries the ASIN itself.
    store: 'amazon',
    hosts: { 'amzn.com': 'US' },
    patterns: [PRODUCT('/(?:dp/)?{asin}')],
    cleanPath: cleanAmazonPath,
    refine: refineAmazon,
  },
  {
    // Opaque short links: only following the redirect reveals the product.
    store: 'amazon',
    hosts: { 'amzn.to': null, 'a.co': null, 'amzn.eu': null, 'amzn.asia': null },
    patterns: [],
    shortLink: true,
  },
];
