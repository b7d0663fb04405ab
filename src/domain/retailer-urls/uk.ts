import type { StoreRule } from './types.js';

const ISBN13 = '(?<isbn>97[89]\\d{10})';

/** British booksellers. Most put the ISBN-13 last in the path, after a title and author slug. */
export const UK_STORES: readonly StoreRule[] = [
  {
    store: 'waterstones',
    hosts: { 'waterstones.com': 'GB' },
    patterns: [
      { path: new RegExp(`^/book/(?<slug>[^/]+)/(?:[^/]+/){0,2}${ISBN13}/?$`, 'i') },
      // Titles without an ISBN (imports, bundles) get a 13-digit Waterstones number instead.
      { path: /^\/book\/(?<slug>[^/]+)\/(?:[^/]+\/){0,2}(?<id>\d{13})\/?$/i, id: 'waterstones' },
      // The old site ("/waterstonesweb/products/<author>/<title>/<sku>/", words joined by "+").
      {
        path: /^\/waterstonesweb\/products\/(?<author>[^/]+)\/(?<slug>[^/]+)\/(?<id>\d+)\/?$/i,
        id: 'waterstones_sku',
      },
      { path: /^\/(?:author|category|events|bookshops|campaign|books\/search)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'blackwells',
    hosts: { 'blackwells.co.uk': 'GB' },
    patterns: [
      { path: new RegExp(`^/bookshop/product/(?:(?<slug>[^/]+)/)?${ISBN13}/?$`, 'i') },
      { path: /^\/bookshop\/(?:search|category|contributor|home)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'foyles',
    hosts: { 'foyles.co.uk': 'GB' },
    patterns: [
      { path: new RegExp(`^/book/(?<slug>[^/]+)/(?:[^/]+/)?${ISBN13}/?$`, 'i') },
      // Older site: /witem/<section>/<title>,<author>-<isbn>
      { path: new RegExp(`^/witem/[^/]+/(?<slug>[^/]+?)-${ISBN13}/?$`, 'i') },
      { path: /^\/(?:author|category|events|search)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'whsmith',
    hosts: { 'whsmith.co.uk': 'GB' },
    patterns: [
      { path: new RegExp(`^/products/(?<slug>[^/]+)/(?:[^/]+/){0,2}${ISBN13}(?:\\.html)?/?$`, 'i') },
      // Stationery and gifts use the same shape with a non-ISBN EAN.
      {
        path: /^\/products\/(?<slug>[^/]+)\/(?:[^/]+\/){0,2}(?<id>\d{8,13})(?:\.html)?\/?$/i,
        id: 'whsmith',
        kind: 'not_book',
        nonBook: true,
      },
      // The older site: /pws/ProductDetails.ice?ProductID=<isbn> (read by the generic ISBN scan).
      { path: /^\/pws\/ProductDetails\.ice$/i, kind: 'unknown' },
    ],
  },
  {
    store: 'hive',
    hosts: { 'hive.co.uk': 'GB' },
    patterns: [
      { path: /^\/Product\/(?<author>[^/]+)\/(?<slug>[^/]+)\/(?<id>\d+)\/?$/i, id: 'hive' },
      { path: /^\/(?:Search|Shop|Basket)\b/i, kind: 'not_book' },
    ],
  },
  {
    // Closed in 2023, but its links live on in old posts and reading lists.
    store: 'bookdepository',
    hosts: { 'bookdepository.com': 'GB', 'bookdepository.co.uk': 'GB' },
    patterns: [
      { path: new RegExp(`^/(?:[a-z]{2}/)?(?<slug>[^/]+)/${ISBN13}/?$`, 'i') },
      { path: /^\/(?:author|category|search|bestsellers)\b/i, kind: 'not_book' },
    ],
  },
];
