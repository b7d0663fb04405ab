import type { StoreRule } from './types.js';

const ISBN13 = '(?<isbn>97[89]\\d{10})';

/** North American booksellers and general retailers. */
export const US_STORES: readonly StoreRule[] = [
  {
    store: 'barnesandnoble',
    hosts: { 'barnesandnoble.com': 'US' },
    patterns: [
      { path: /^\/w\/(?<slug>[^/]+)\/(?<id>\d+)\/?$/i, id: 'bn', query: { ean: 'isbn' } },
      { path: /^\/w\/?$/i, query: { ean: 'isbn' } },
      { path: /^\/(?:b|s|h|blog|membership)(?:\/|$)/i, kind: 'not_book' },
    ],
  },
  {
    store: 'bookshop',
    hosts: { 'bookshop.org': 'US', 'uk.bookshop.org': 'GB', 'es.bookshop.org': 'ES' },
    searchParams: ['keywords'],
    patterns: [
      { path: new RegExp(`^/book/${ISBN13}/?$`) },
      // /a/<affiliate>/<isbn>: the number before the ISBN is the referring shop, not the book.
      { path: new RegExp(`^/a/\\d+/${ISBN13}/?$`) },
      { path: /^\/p\/books\/(?<slug>[^/]+)\/(?<id>\d+)\/?$/i, id: 'bookshop', query: { ean: 'isbn' } },
      { path: new RegExp(`^/books/(?<slug>[^/]+)/${ISBN13}/?$`) },
      { path: /^\/(?:shop|lists|categories|info|pages|search|beta-search)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'powells',
    hosts: { 'powells.com': 'US' },
    patterns: [
      { path: new RegExp(`^/book/(?:(?<slug>[^/]+)-|-/)${ISBN13}/?$`, 'i') },
      { path: /^\/(?:author|section|searchresults)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'booksamillion',
    hosts: { 'booksamillion.com': 'US' },
    patterns: [
      {
        path: /^\/(?:p\/)?(?<slug>[^/]+)\/[^/]+\/(?<isbn>(?:97[89])?\d{9}[\dX])\/?$/i,
        query: { id: 'booksamillion' },
      },
      { path: /^\/(?:search|bargain|gifts|toys|category)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'indigo',
    hosts: { 'indigo.ca': 'CA', 'chapters.indigo.ca': 'CA' },
    patterns: [
      {
        path: new RegExp(
          `^/(?:[a-z]{2}-[a-z]{2}/)?(?:books/)?(?:(?<slug>[^/]+)/)?${ISBN13}(?:-item)?(?:\\.html)?/?$`,
          'i',
        ),
      },
      { path: /^\/(?:[a-z]{2}-[a-z]{2}\/)?(?:home|toys|gifts|kids|search)\b/i, kind: 'not_book' },
    ],
  },
  {
    // Target and Walmart sell everything: a product page is a book only when the slug holds an ISBN.
    store: 'target',
    hosts: { 'target.com': 'US' },
    patterns: [
      { path: /^\/p\/(?<slug>[^/]+)\/-\/A-(?<id>\d+)\/?$/i, id: 'target', kind: 'unknown', isbnInSlug: true },
      { path: /^\/(?:c|s|b)\//i, kind: 'not_book' },
    ],
  },
  {
    store: 'walmart',
    hosts: { 'walmart.com': 'US', 'walmart.ca': 'CA' },
    patterns: [
      {
        path: /^\/(?:en\/)?ip\/(?:(?<slug>[^/]+)\/)?(?<id>\d+)\/?$/i,
        id: 'walmart',
        kind: 'unknown',
        isbnInSlug: true,
      },
      { path: /^\/(?:browse|cp|search|shop)\b/i, kind: 'not_book' },
    ],
  },
];
