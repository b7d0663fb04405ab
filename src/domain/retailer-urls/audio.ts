import { parseIsbn } from '../isbn.js';
import { AUDIBLE_HOSTS } from '../store-hosts.js';
import type { StoreRule } from './types.js';

const AUDIBLE_NOISE =
  /(?:\s+(?:audiobook|h[öo]rbuch|livre audio|audiolibro|audiolivro|オーディオブック|unabridged|ungekürzt))+$/iu;

export const AUDIO_STORES: readonly StoreRule[] = [
  {
    store: 'audible',
    hosts: AUDIBLE_HOSTS,
    patterns: [
      {
        path: /^\/pd\/(?:(?<slug>[^/]+)\/)?(?<id>[A-Z0-9]{10})\/?$/i,
        id: 'audible',
        slugNoise: AUDIBLE_NOISE,
      },
      { path: /^\/(?:author|series|podcast|ep|library|cat)\b/i, kind: 'not_book' },
      { path: /^\/search\/?$/i, kind: 'not_book' },
    ],
    refine(draft, { groups, path, url }) {
      // Audible's own search asks `?keywords=`, a name other shops use for tracking.
      if (/^\/search\/?$/i.test(path) && !draft.titleWords)
        draft.titleWords = url.searchParams.get('keywords')?.trim().slice(0, 200) || null;
      // Audible ASINs are Amazon ASINs; a numeric one is the audio edition's ISBN-10.
      const asin = groups.id?.toUpperCase();
      if (!asin) return;
      draft.identifiers.audible = asin;
      draft.canonicalPath = `/pd/${asin}`;
      if (/^\d{9}[\dX]$/.test(asin)) draft.isbn = parseIsbn(asin);
    },
  },
  {
    store: 'librofm',
    hosts: { 'libro.fm': null },
    patterns: [
      { path: /^\/audiobooks\/(?<isbn>97[89]\d{10})(?:-(?<slug>[^/]+))?\/?$/i },
      { path: /^\/(?:bookstores|playlists|genres|listeners)\b/i, kind: 'not_book' },
    ],
  },
];
