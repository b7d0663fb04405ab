import type { StoreRule } from './types.js';

// Google Books answers on every Google country domain with the same volume ids; none is a storefront.
const GOOGLE_TLDS = [
  'com',
  'co.uk',
  'de',
  'fr',
  'it',
  'es',
  'ca',
  'com.au',
  'co.jp',
  'co.in',
  'nl',
  'com.br',
  'com.mx',
  'pl',
  'se',
  'ch',
  'at',
  'be',
  'ie',
  'co.nz',
  'ru',
  'pt',
  'dk',
  'no',
  'fi',
  'com.tr',
  'co.za',
  'com.ar',
];
const VOLUME_ID = '(?<id>[A-Za-z0-9_-]{12})';

/** Ebook and audiobook platforms: Google, Apple, Kobo, Rakuten Kobo, Scribd/Everand. */
export const DIGITAL_PLATFORMS: readonly StoreRule[] = [
  {
    store: 'googlebooks',
    hosts: {
      ...Object.fromEntries(GOOGLE_TLDS.map((tld) => [`books.google.${tld}`, null])),
      'www.google.com': null,
    },
    patterns: [
      { path: new RegExp(`^/books/edition/(?<slug>[^/]+)/${VOLUME_ID}/?$`), id: 'google_volume' },
      { path: /^\/books\/about\/(?<slug>[^/]+?)(?:\.html)?$/i, query: { id: 'google_volume' } },
      // vid=ISBN9780…: compactIsbn drops the "ISBN" label.
      { path: /^\/books(?:\/reader)?\/?$/i, query: { id: 'google_volume', vid: 'isbn' } },
    ],
  },
  {
    store: 'googleplay',
    hosts: { 'play.google.com': null },
    patterns: [
      { path: /^\/store\/books\/details(?:\/(?<slug>[^/]+))?\/?$/i, query: { id: 'google_volume' } },
      {
        path: /^\/store\/audiobooks\/details(?:\/(?<slug>[^/]+))?\/?$/i,
        query: { id: 'google_play_audiobook' },
      },
      {
        path: /^\/store\/(?:apps|movies|tv|music|games|search|books\/(?:author|collection|category))\b/i,
        kind: 'not_book',
      },
    ],
  },
  {
    store: 'applebooks',
    hosts: { 'books.apple.com': null, 'itunes.apple.com': null, 'geo.itunes.apple.com': null },
    patterns: [
      {
        path: /^\/(?:(?<country>[a-z]{2})\/)?book\/(?:(?<slug>[^/]+)\/)?id(?<id>\d+)\/?$/i,
        id: 'apple_books',
      },
      // An audiobook is a product of its own (its own id, its own ISBN): never the ebook's id.
      {
        path: /^\/(?:(?<country>[a-z]{2})\/)?audiobook\/(?:(?<slug>[^/]+)\/)?id(?<id>\d+)\/?$/i,
        id: 'apple_audiobook',
        // Apple's audiobook slugs end in the edition's note: …/project-hail-mary-unabridged/id….
        slugNoise: /\s+(?:un)?abridged$/i,
      },
      // iTunes URLs also serve music, films and apps under the same id scheme.
      {
        path: /^\/(?:[a-z]{2}\/)?(?:album|app|movie|podcast|tv-season|tv-show|music-video|artist|author|book-series)\//i,
        kind: 'not_book',
      },
    ],
  },
  {
    store: 'kobo',
    hosts: { 'kobo.com': null, 'kobobooks.com': null },
    patterns: [
      {
        path: /^\/(?<country>[a-z]{2})\/[a-z]{2}\/(?:ebook|audiobook)\/(?<id>(?<slug>[^/]+))\/?$/i,
        id: 'kobo',
      },
      { path: /^\/(?:[a-z]{2}-[a-z]{2}\/)?(?:ebook|audiobook)\/(?<id>(?<slug>[^/]+))\/?$/i, id: 'kobo' },
      { path: /^\/(?:[a-z]{2}\/[a-z]{2}\/)?(?:author|series|category|list|plus|p)\b/i, kind: 'not_book' },
    ],
  },
  {
    // Rakuten Kobo's Japanese store lives inside Rakuten Books: /rk/ is an ebook, /rb/ a print book.
    store: 'rakutenkobo',
    hosts: { 'books.rakuten.co.jp': 'JP' },
    searchParams: ['sitem'],
    patterns: [
      { path: /^\/rk\/(?<id>[0-9a-f]{32})\/?$/i, id: 'rakuten_kobo' },
      { path: /^\/rb\/(?<id>\d+)\/?$/i, id: 'rakuten_books' },
    ],
  },
  ...['scribd', 'everand'].map(
    (store): StoreRule => ({
      store,
      hosts: { [`${store}.com`]: null },
      patterns: [
        { path: /^\/(?:book|audiobook)\/(?<id>\d+)(?:\/(?<slug>[^/]+))?\/?$/i, id: store },
        // User uploads: could be anything.
        { path: /^\/(?:document|doc|presentation)\/(?<id>\d+)/i, kind: 'unknown' },
        { path: /^\/(?:podcast|podcast-show|podcast-episode|author|series|user)\b/i, kind: 'not_book' },
      ],
    }),
  ),
];
