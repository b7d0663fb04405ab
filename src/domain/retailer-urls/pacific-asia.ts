import { parseIsbn } from '../isbn.js';
import type { StoreRule } from './types.js';

const ISBN13 = '(?<isbn>97[89]\\d{10})';

/** Australian, New Zealand and East Asian booksellers. */
export const PACIFIC_ASIA_STORES: readonly StoreRule[] = [
  {
    store: 'booktopia',
    hosts: { 'booktopia.com.au': 'AU' },
    searchParams: ['keywords'],
    patterns: [
      { path: new RegExp(`^/(?<slug>[^/]+)/(?:book|ebook|audiobook|prod)/?${ISBN13}\\.html$`, 'i') },
      { path: new RegExp(`^/(?<slug>[^/]+)/prod${ISBN13}\\.html$`, 'i') },
      { path: /^\/(?:books|search|authors|gifts)\b/i, kind: 'not_book' },
    ],
    refine(draft, { path, url }) {
      // The shop's own ISBN search (`/search.ep?keywords=…`): "keywords" is elsewhere a tracking name.
      const isbn = /^\/search\.ep$/i.test(path) ? parseIsbn(url.searchParams.get('keywords') ?? '') : null;
      if (isbn && !draft.isbn) {
        draft.isbn = isbn;
        draft.kind = 'book';
      }
    },
  },
  {
    store: 'dymocks',
    hosts: { 'dymocks.com.au': 'AU' },
    patterns: [
      { path: new RegExp(`^/book/(?<slug>[^/]+?)-${ISBN13}/?$`, 'i'), authorSeparator: /-by-/i },
      // The newer shape drops "/book": /<title>-by-<author>-<isbn>.
      { path: new RegExp(`^/(?<slug>[^/]+?-by-[^/]+?)-${ISBN13}/?$`, 'i'), authorSeparator: /-by-/i },
      { path: /^\/(?:books|search|gifts|stationery|stores)\b/i, kind: 'not_book' },
    ],
  },
  {
    // Mighty Ape is mostly games and toys; its product ids say nothing about the kind of product.
    store: 'mightyape',
    hosts: { 'mightyape.co.nz': 'NZ', 'mightyape.com.au': 'AU' },
    patterns: [
      {
        path: /^\/(?:mn\/buy\/|product\/)(?<slug>[^/]+)\/(?<id>\d+)\/?$/i,
        id: 'mightyape',
        kind: 'unknown',
        isbnInSlug: true,
      },
      { path: /^\/(?:browse|search|games|toys)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'fishpond',
    hosts: { 'fishpond.co.nz': 'NZ', 'fishpond.com.au': 'AU' },
    patterns: [
      { path: new RegExp(`^/(?:Books|eBooks|Audiobooks)/(?:[^/]+/)*?(?<slug>[^/]+)/${ISBN13}/?$`, 'i') },
      // Same shape for toys, films and music, under their own department.
      {
        path: /^\/(?:Toys|Games|Movies|Music|Baby|Sports|Electronics|Home)\//i,
        kind: 'not_book',
        nonBook: true,
      },
    ],
  },
  {
    store: 'thenile',
    hosts: { 'thenile.co.nz': 'NZ', 'thenile.com.au': 'AU' },
    patterns: [
      { path: new RegExp(`^/books/(?:[^/]+/)?(?<slug>[^/]+)/${ISBN13}/?$`, 'i') },
      { path: /^\/(?:movies|music|games|toys|search)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'yes24',
    hosts: { 'yes24.com': 'KR' },
    patterns: [
      { path: /^\/(?:Product\/Goods|Goods\/Detail)\/(?<id>\d+)\/?$/i, id: 'yes24' },
      { path: /^\/Product\/Search\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'kyobo',
    hosts: { 'kyobobook.co.kr': 'KR' },
    patterns: [
      { path: /^\/detail\/(?<id>S\d+)\/?$/i, id: 'kyobo' },
      { path: /^\/product\/detailView(?:Kor|Eng)\.laf$/i, query: { barcode: 'isbn' } },
    ],
  },
];
