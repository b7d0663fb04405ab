import type { StoreRule } from './types.js';

const ISBN13 = '(?<isbn>97[89]\\d{10})';

/** Used and rare booksellers and general marketplaces. */
export const MARKETPLACES: readonly StoreRule[] = [
  {
    store: 'abebooks',
    hosts: {
      'abebooks.com': 'US',
      'abebooks.co.uk': 'GB',
      'abebooks.de': 'DE',
      'abebooks.fr': 'FR',
      'abebooks.it': 'IT',
      'abebooks.ca': 'CA',
      'iberlibro.com': 'ES',
      'zvab.com': 'DE',
    },
    // kn: keywords, tn: title, an: author (the shop's search form).
    searchParams: ['kn', 'tn', 'an'],
    patterns: [
      { path: /^\/servlet\/BookDetailsPL$/i, query: { bi: 'abebooks' } },
      // "/9780547928227/The-Hobbit-Tolkien-J-R-R-054792822X/plp": slug ends with the ISBN-10.
      { path: new RegExp(`^/${ISBN13}/(?<slug>[^/]+)/plp/?$`, 'i') },
      { path: new RegExp(`^/(?:products|book-search)/isbn/(?:[^/]+/)?${ISBN13}/?`, 'i') },
      {
        path: /^\/(?:servlet\/SearchResults|book-search|collections|rare-books|first-edition)\b/i,
        kind: 'not_book',
      },
    ],
  },
  {
    store: 'biblio',
    hosts: { 'biblio.com': 'US', 'biblio.co.uk': 'GB' },
    searchParams: ['keywords'],
    patterns: [
      { path: /^\/book\/(?<slug>[^/]+)\/d\/(?<id>\d+)\/?$/i, id: 'biblio' },
      { path: new RegExp(`^/(?:isbn/)?${ISBN13}/?$`, 'i') },
      { path: /^\/(?:search\.php|bookstores|[a-z-]+-books)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'alibris',
    hosts: { 'alibris.com': 'US' },
    patterns: [
      { path: /^\/(?<slug>[^/]+)\/book\/(?<id>\d+)\/?$/i, id: 'alibris' },
      { path: new RegExp(`^/search/books/isbn/${ISBN13}/?$`, 'i') },
      { path: /^\/booksearch$/i, kind: 'not_book' },
    ],
  },
  {
    store: 'betterworldbooks',
    hosts: { 'betterworldbooks.com': 'US' },
    patterns: [
      { path: new RegExp(`^/product/detail/(?<slug>[^/]+?)-${ISBN13}/?$`, 'i') },
      { path: /^\/(?:search|category|list)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'thriftbooks',
    hosts: { 'thriftbooks.com': 'US' },
    searchParams: ['b.search'],
    // The edition's ISBN sits in the fragment (#isbn=…&idiq=…); the path names the work.
    patterns: [
      {
        path: /^\/w\/(?<slug>[^/]+)\/(?<id>\d+)\/?$/i,
        id: 'thriftbooks',
        query: { isbn: 'isbn' },
        authorSeparator: /_/,
      },
      { path: /^\/(?:a|browse|list)\//i, kind: 'not_book' },
    ],
  },
  {
    // Listings are free-form: only an ISBN in the listing's slug makes it a known book.
    store: 'ebay',
    hosts: {
      'ebay.com': 'US',
      'ebay.co.uk': 'GB',
      'ebay.de': 'DE',
      'ebay.fr': 'FR',
      'ebay.it': 'IT',
      'ebay.es': 'ES',
      'ebay.ca': 'CA',
      'ebay.com.au': 'AU',
    },
    searchParams: ['_nkw'],
    patterns: [
      {
        path: /^\/itm\/(?:(?<slug>[^/]+)\/)?(?<id>\d{9,14})\/?$/i,
        id: 'ebay',
        kind: 'unknown',
        isbnInSlug: true,
      },
      {
        path: /^\/p\/(?:(?<slug>[^/]+)\/)?(?<id>\d+)\/?$/i,
        id: 'ebay_epid',
        kind: 'unknown',
        isbnInSlug: true,
      },
      { path: /^\/(?:sch|b|str|usr|e)\//i, kind: 'not_book' },
    ],
  },
];
