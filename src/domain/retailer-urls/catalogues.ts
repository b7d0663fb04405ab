import type { StoreRule } from './types.js';

/** Reading catalogues and library union catalogues: no prices, but stable book identifiers. */
export const CATALOGUES: readonly StoreRule[] = [
  {
    store: 'goodreads',
    hosts: { 'goodreads.com': null },
    patterns: [
      // Both "/book/show/5907.The_Hobbit" and "/book/show/5907-the-hobbit" put the id first.
      { path: /^\/(?:[a-z]{2}\/)?book\/show\/(?<id>\d+)(?:[.-](?<slug>[^/]+))?\/?$/i, id: 'goodreads' },
      {
        path: /^\/work\/(?:editions|quotes|best_book)\/(?<id>\d+)(?:[.-](?<slug>[^/]+))?\/?$/i,
        id: 'goodreads_work',
      },
      { path: /^\/book\/isbn\/(?<isbn>[\dX-]{10,17})\/?$/i },
      { path: /^\/(?:author|user|list|genres|shelf|group|quotes|review\/list)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'openlibrary',
    hosts: { 'openlibrary.org': null },
    patterns: [
      { path: /^\/books\/(?<id>OL\d+M)(?:\/(?<slug>[^/]+))?\/?$/i, id: 'ol_edition' },
      { path: /^\/works\/(?<id>OL\d+W)(?:\/(?<slug>[^/]+))?\/?$/i, id: 'ol_work' },
      { path: /^\/isbn\/(?<isbn>[\dX-]{10,17})\/?$/i },
      { path: /^\/(?:authors|subjects|publishers|people|lists|search)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'worldcat',
    hosts: { 'worldcat.org': null },
    patterns: [
      // Old "/title/the-hobbit/oclc/123" and new "search.worldcat.org/title/123" or "/title/slug/123",
      // also under a language ("/en/title/123", "/fr-ca/title/123").
      { path: /^\/title\/(?<slug>[^/]+)\/oclc\/(?<id>\d+)\/?$/i, id: 'worldcat' },
      {
        path: /^(?:\/[a-z]{2}(?:-[a-z]{2})?)?\/(?:oclc|title)\/(?:(?<slug>[^/]*[a-z][^/]*)\/)?(?<id>\d+)\/?$/i,
        id: 'worldcat',
      },
      // A library's WorldCat Discovery ("{library}.on.worldcat.org"): "/v2/oclc/123", "/oclc/123" and
      // "/search/detail/123" (before the search pages below, which are not books).
      { path: /^\/(?:v2\/)?oclc\/(?<id>\d+)\/?$/i, id: 'worldcat' },
      { path: /^\/(?:v2\/)?search\/detail\/(?<id>\d+)\/?$/i, id: 'worldcat' },
      { path: /^\/isbn\/(?<isbn>[\dX-]{10,17})\/?$/i },
      { path: /^\/(?:search|identities|profiles|lists)\b/i, kind: 'not_book' },
    ],
    refine(draft, { params }) {
      // A search for one OCLC number ("no:1037871", WorldCat's index label for it) names that edition.
      const asked = `${params.get('queryString') ?? params.get('q') ?? ''}`;
      const oclc = /^\s*no:\s*(\d{1,15})\s*$/i.exec(asked)?.[1];
      if (draft.kind !== 'not_book' || !oclc) return;
      draft.identifiers.worldcat = oclc;
      draft.kind = 'book';
    },
  },
  {
    store: 'librarything',
    hosts: { 'librarything.com': null },
    patterns: [
      // "/work/1565", "/work/1565/t/The-Hobbit", "/work/1565/book/123", "/work/1565/details/123"…
      { path: /^\/work\/(?<id>\d+)(?:\/t\/(?<slug>[^/]+)|(?:\/[^/]+)*)\/?$/i, id: 'librarything' },
      { path: /^\/isbn\/(?<isbn>[\dX-]{10,17})\/?$/i },
      { path: /^\/(?:author|profile|catalog|tag|series)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'storygraph',
    hosts: { 'thestorygraph.com': null },
    patterns: [
      {
        path: /^\/books\/(?<id>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i,
        id: 'storygraph',
      },
      { path: /^\/(?:authors|profile|browse|reading_challenges)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'douban',
    hosts: { 'book.douban.com': 'CN', 'douban.com': 'CN' },
    patterns: [
      { path: /^\/subject\/(?<id>\d+)\/?/i, id: 'douban' },
      { path: /^\/isbn\/(?<isbn>[\dX-]{10,17})\/?$/i },
    ],
    refine(draft, { url }) {
      // movie.douban.com and music.douban.com use the same /subject/ ids for films and albums.
      if (url.hostname !== 'book.douban.com' && !url.hostname.endsWith('.book.douban.com')) {
        draft.kind = 'not_book';
        draft.nonBook = true;
        delete draft.identifiers.douban;
      }
    },
  },
];
