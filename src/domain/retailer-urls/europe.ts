import { parseIsbn } from '../isbn.js';
import type { StoreRule } from './types.js';

const ISBN13 = '(?<isbn>97[89]\\d{10})';

/** Continental European booksellers. */
export const EUROPE_STORES: readonly StoreRule[] = [
  {
    store: 'bol',
    hosts: { 'bol.com': null },
    patterns: [
      { path: /^\/(?:nl|be)\/(?:nl|fr)\/(?:s|l|b|c|w|m)\//i, kind: 'not_book' },
      // Bol sells everything; its product id is sometimes the EAN itself.
      {
        path: /^\/(?<country>nl|be)\/(?:nl|fr)\/p\/(?<slug>[^/]+)\/(?<id>\d+)\/?$/i,
        id: 'bol',
        kind: 'unknown',
      },
    ],
    refine(draft, { groups }) {
      const isbn = groups.id ? parseIsbn(groups.id) : null;
      if (isbn && groups.id?.length === 13) draft.isbn = isbn;
    },
  },
  {
    store: 'thalia',
    hosts: { 'thalia.de': 'DE', 'thalia.at': 'AT', 'thalia.ch': 'CH' },
    searchParams: ['sq'],
    patterns: [
      { path: /^\/shop\/home\/artikeldetails\/(?<id>(?:A|ID)\d+)(?:\.html)?\/?$/i, id: 'thalia' },
      { path: /^\/shop\/home\/(?:suche|show|mehr-von-suche)\b/i, kind: 'not_book' },
      // The shop's search box: /suche?sq=<words or ISBN>.
      { path: /^\/suche\/?$/i, kind: 'not_book' },
    ],
  },
  {
    store: 'fnac',
    hosts: { 'fnac.com': 'FR', 'fnac.be': 'BE', 'fnac.pt': 'PT', 'fnac.es': 'ES', 'fnac.ch': 'CH' },
    patterns: [{ path: /^\/(?<id>a\d+|mp\d+)(?:\/(?<slug>[^/]+))?\/?$/i, id: 'fnac', kind: 'unknown' }],
    refine(draft, { url }) {
      // livre.fnac.com only sells books; www.fnac.com product ids also cover televisions.
      if (draft.identifiers.fnac && url.hostname.startsWith('livre.')) draft.kind = 'book';
    },
  },
  {
    store: 'hugendubel',
    hosts: { 'hugendubel.de': 'DE' },
    patterns: [
      {
        path: /^\/de\/(?:dvd|blu_ray|spielwaren|musik_cd|vinyl|geschenkartikel)\//i,
        kind: 'not_book',
        nonBook: true,
      },
      { path: /^\/de\/[^/]+\/(?<slug>[^/]+?)-(?<id>\d+)-produkt-details\.html$/i, id: 'hugendubel' },
    ],
  },
  {
    store: 'casadellibro',
    hosts: { 'casadellibro.com': 'ES' },
    patterns: [
      {
        path: new RegExp(`^/(?:libro|ebook|audiolibro)-(?<slug>[^/]+)/${ISBN13}/(?<id>\\d+)/?$`, 'i'),
        id: 'casadellibro',
        slugNoise: /\s+(?:ebook|audiolibro)$/i,
      },
      { path: /^\/(?:busqueda|libros|autor)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'feltrinelli',
    hosts: { 'lafeltrinelli.it': 'IT' },
    patterns: [
      // "lo-hobbit-libro-j-r-r-tolkien": the format word separates title from author.
      {
        path: new RegExp(`^/(?<slug>[^/]+)/e/${ISBN13}/?$`, 'i'),
        slugNoise: /\s+(?:libro|ebook|audiolibro)\b.*$/i,
      },
      { path: /^\/(?:libri|search|autore)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'adlibris',
    hosts: { 'adlibris.com': null },
    patterns: [
      {
        path: new RegExp(
          `^/(?<country>se|fi|no|dk|de)/(?:bok|e-bok|ljudbok|kirja|e-kirja|bog|buch)/(?<slug>[^/]+?)-${ISBN13}/?$`,
          'i',
        ),
      },
      { path: /^\/(?:se|fi|no|dk|de)\/(?:sok|haku|search|kategori)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'bokus',
    hosts: { 'bokus.com': 'SE' },
    patterns: [
      { path: new RegExp(`^/(?:bok|e-bok|ljudbok)/${ISBN13}(?:/(?<slug>[^/]+))?/?$`, 'i') },
      { path: /^\/(?:cgi-bin|topplistor|forfattare)\b/i, kind: 'not_book' },
    ],
  },
  {
    store: 'saxo',
    hosts: { 'saxo.com': null },
    patterns: [
      {
        path: new RegExp(`^/(?<country>dk|se|no)/(?<slug>[^/]+?)_${ISBN13}/?$`, 'i'),
        slugNoise: /\s+(?:indbundet|hæftet|paperback|hardback|e-?bog|lydbog|ebog)$/i,
      },
      { path: /^\/(?:dk|se|no)\/(?:products\/search|forfatter|kategori)\b/i, kind: 'not_book' },
    ],
  },
];
