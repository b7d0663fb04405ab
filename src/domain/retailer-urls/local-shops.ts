import { slugWords } from './slug.js';
import type { PathRule, StoreRule } from './types.js';

/**
 * Bookshops seeded for their own countries (migrations 0026 and 0033) whose links are their search by
 * ISBN: the host names the shop and its country; the ISBN is read by the generic scan (isbn-scan.ts),
 * so a search page with an ISBN in it is tied to that book and one with words offers them for a
 * search. Where each link form comes from: docs/storefront-templates.md.
 */
const SHOPS: ReadonlyArray<[store: string, hosts: Readonly<Record<string, string>>]> = [
  ['easons', { 'easons.com': 'IE' }],
  ['kennys', { 'kennys.ie': 'IE' }],
  ['dubray', { 'dubraybooks.ie': 'IE' }],
  ['buecher-de', { 'buecher.de': 'DE' }],
  ['osiander', { 'osiander.de': 'DE' }],
  ['weltbild', { 'weltbild.de': 'DE', 'weltbild.at': 'AT', 'weltbild.ch': 'CH' }],
  ['morawa', { 'morawa.at': 'AT' }],
  ['orell-fuessli', { 'orellfuessli.ch': 'CH' }],
  ['ex-libris', { 'exlibris.ch': 'CH' }],
  ['decitre', { 'decitre.fr': 'FR' }],
  ['cultura', { 'cultura.com': 'FR' }],
  ['leslibraires', { 'leslibraires.fr': 'FR', 'leslibraires.ca': 'CA' }],
  ['standaard-boekhandel', { 'standaardboekhandel.be': 'BE' }],
  // The shop's site moved from club.be to librairieclub.be; links to the old host stay readable.
  ['club', { 'club.be': 'BE', 'librairieclub.be': 'BE' }],
  ['bruna', { 'bruna.nl': 'NL' }],
  ['libris', { 'libris.nl': 'NL' }],
  ['paagman', { 'paagman.nl': 'NL' }],
  ['el-corte-ingles', { 'elcorteingles.es': 'ES' }],
  ['todostuslibros', { 'todostuslibros.com': 'ES' }],
  ['agapea', { 'agapea.com': 'ES' }],
  ['ibs', { 'ibs.it': 'IT' }],
  ['mondadori-store', { 'mondadoristore.it': 'IT' }],
  ['libraccio', { 'libraccio.it': 'IT' }],
  ['renaud-bray', { 'renaud-bray.com': 'CA' }],
  ['qbd', { 'qbd.com.au': 'AU' }],
  ['readings', { 'readings.com.au': 'AU' }],
  ['whitcoulls', { 'whitcoulls.co.nz': 'NZ' }],
  ['paper-plus', { 'paperplus.co.nz': 'NZ' }],
  ['unity-books', { 'unitybooks.nz': 'NZ' }],
  ['kinokuniya', { 'kinokuniya.co.jp': 'JP' }],
  ['honto', { 'honto.jp': 'JP' }],
  ['7net', { '7net.omni7.jp': 'JP' }],
  ['flipkart', { 'flipkart.com': 'IN' }],
  ['crossword', { 'crossword.in': 'IN' }],
  ['bookswagon', { 'bookswagon.com': 'IN' }],
  ['sapna', { 'sapnaonline.com': 'IN' }],
];

/** Their search pages, in the shops' own words: no book by themselves, tied to one by an ISBN in them. */
const SEARCH: PathRule = {
  path: /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/|c\/)?(?:search[^/]*|suche|recherche|rechercher|zoeken|zoek|busquedas?|buscar|cerca|src|netstore\/search\.html|search-books|search-nwx)(?:\.aspx)?(?:\/.*)?$/i,
  kind: 'not_book',
};

const ISBN13 = '(?<isbn>97[89]\\d{10})';

/** Product pages as the shops print them, with the ISBN (and mostly the title) in the path. */
const PRODUCTS: Readonly<Record<string, readonly PathRule[]>> = {
  // /f/dsg-01-<isbn> for Japanese books, dsg-02 for imported ones.
  kinokuniya: [{ path: new RegExp(`^/f/dsg-\\d{2}-${ISBN13}/?$`, 'i') }],
  // /detail/ISBN-<isbn>/<Author>/<Title>: the shop opens the book from the ISBN alone.
  morawa: [{ path: new RegExp(`^/detail/ISBN-${ISBN13}(?:/(?<author>[^/]+)/(?<slug>[^/]+))?/?$`, 'i') }],
  // /shop/<title-author>-<isbn>, sometimes with a "-1" edition suffix.
  kennys: [{ path: new RegExp(`^/shop/(?<slug>[^/]+?)-${ISBN13}(?:-\\d)?/?$`, 'i') }],
  dubray: [{ path: new RegExp(`^/(?<slug>[^/]+)_${ISBN13}/?$`, 'i') }],
  'standaard-boekhandel': [{ path: new RegExp(`^/p/(?<slug>[^/]+?)-${ISBN13}/?$`, 'i') }],
  agapea: [{ path: new RegExp(`^/libros/(?<slug>[^/]+?)-${ISBN13}-i\\.htm$`, 'i') }],
  // /libros/<title>_978-84-…: the ISBN written with its hyphens.
  todostuslibros: [{ path: /^\/libros\/(?<slug>[^/]+)_(?<isbn>97[89](?:-?\d){10})\/?$/i }],
  // /boeken/<title>-<isbn>, the title slug sometimes left out: /boeken/-<isbn>.
  bruna: [{ path: new RegExp(`^/boeken/(?<slug>[^/]+?)?-${ISBN13}/?$`, 'i') }],
  // /livre/<shop number>-<title-author-publisher>: no ISBN, the shop's own number.
  leslibraires: [{ path: /^\/livre\/(?<id>\d+)-(?<slug>[^/]+)\/?$/i, id: 'leslibraires' }],
  // Weltbild's and Bookswagon's searches ask in the path: /suche/<words or ISBN>.
  weltbild: [{ path: /^\/suche\/(?<slug>[^/]+)\/?$/i, kind: 'not_book' }],
  bookswagon: [{ path: /^\/search-books\/(?<slug>[^/]+)(?:\/.*)?$/i, kind: 'not_book' }],
  // /boek?authortitle=<author>/<title>--<isbn> (read by `refine` below).
  libris: [{ path: /^\/boek\/?$/i, kind: 'unknown' }],
  // Livres_Produit.aspx?id=<shop number>&def=<Title>,<AUTHOR>,<isbn> (read by `refine` below).
  'renaud-bray': [
    { path: /^\/(?:Livres|Livre_Numerique)_Produit\.aspx$/i, query: { id: 'renaud_bray' }, kind: 'unknown' },
  ],
};

/** Title and author where a shop writes them in a parameter rather than the path. */
const REFINE: Readonly<Record<string, NonNullable<StoreRule['refine']>>> = {
  libris(draft, { params }) {
    const [author, title] = splitAt(params.get('authortitle') ?? '', '/');
    draft.titleWords ??= slugWords(title);
    if (draft.titleWords) draft.authorWords ??= slugWords(author);
  },
  'renaud-bray'(draft, { params }) {
    const [title, rest] = splitAt(params.get('def') ?? '', ',');
    draft.titleWords ??= slugWords(title);
    if (draft.titleWords) draft.authorWords ??= slugWords(rest);
  },
  // Librairie Club searches with ?filter=search(<words or ISBN>); a pasted URL may have lost the ")".
  club(draft, { params }) {
    const asked = /^search\((.*?)\)?$/i.exec(params.get('filter') ?? '')?.[1]?.trim();
    if (asked && /\p{L}/u.test(asked) && draft.kind === 'not_book') draft.titleWords ??= asked;
  },
};

function splitAt(text: string, separator: string): [string | undefined, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text || undefined, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

/** The parameter a shop's search box fills, where it is none the generic scan knows (`q`, `query`…). */
const SEARCH_PARAMS: Readonly<Record<string, readonly string[]>> = {
  osiander: ['sq'],
  morawa: ['sq'],
  'orell-fuessli': ['sq'],
  cultura: ['search_query'],
  agapea: ['texto'],
  'mondadori-store': ['g'],
  libraccio: ['xy', 'FT'],
  'renaud-bray': ['words'],
};

export const LOCAL_SHOPS: readonly StoreRule[] = SHOPS.map(([store, hosts]) => {
  const refine = REFINE[store];
  const searchParams = SEARCH_PARAMS[store];
  return {
    store,
    hosts,
    patterns: [...(PRODUCTS[store] ?? []), SEARCH],
    ...(refine ? { refine } : {}),
    ...(searchParams ? { searchParams } : {}),
  };
});
