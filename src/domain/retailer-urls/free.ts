import type { StoreRule } from './types.js';

/**
 * Free copies and lending libraries that name a book by their own id (the ids Booklink's "free"
 * and "library" links are built from): Project Gutenberg, Standard Ebooks, LibriVox, Internet Archive.
 */
export const FREE_LIBRARIES: readonly StoreRule[] = [
  {
    store: 'gutenberg',
    hosts: { 'gutenberg.org': null },
    patterns: [
      { path: /^\/(?:ebooks|files|cache\/epub)\/(?<id>\d+)(?:[/.].*)?$/i, id: 'gutenberg' },
      { path: /^\/(?:ebooks\/(?:search|author|subject|bookshelf)|browse)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'standard-ebooks',
    hosts: { 'standardebooks.org': null },
    patterns: [
      { path: /^\/ebooks\/(?<id>[a-z0-9-]+\/[a-z0-9-]+)(?:\/[a-z0-9-]+)*\/?$/i, id: 'standard_ebooks' },
      { path: /^\/ebooks\/?$/i, kind: 'not_book' },
    ],
  },
  {
    store: 'librivox',
    hosts: { 'librivox.org': null },
    patterns: [
      { path: /^\/(?:search|author|reader|group|pages|category)\b/i, kind: 'not_book' },
      { path: /^\/(?<id>[a-z0-9]+(?:-[a-z0-9]+)+)\/?$/i, id: 'librivox' },
    ],
  },
  {
    store: 'internet-archive',
    hosts: { 'archive.org': null },
    patterns: [
      { path: /^\/(?:details|stream|download)\/(?<id>[A-Za-z0-9_.-]{3,100})(?:\/.*)?$/, id: 'ia' },
      { path: /^\/search\b/i, kind: 'not_book' },
    ],
  },
];
