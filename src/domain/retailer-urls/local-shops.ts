import type { PathRule, StoreRule } from './types.js';

/**
 * Bookshops seeded for their own countries (migration 0026) whose links are their search by ISBN: the
 * host names the shop and its country; the ISBN is read by the generic scan (isbn-scan.ts), so a
 * search page with an ISBN in it is tied to that book and one with words offers them for a search.
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
  ['club', { 'club.be': 'BE' }],
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
  path: /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?(?:search[^/]*|suche|recherche|rechercher|zoeken|busqueda|buscar|cerca|src|netstore\/search\.html|search-books|search-nwx)(?:\/.*)?$/i,
  kind: 'not_book',
};

/** Kinokuniya names a book by its ISBN: /f/dsg-01-<isbn>. */
const PRODUCTS: Readonly<Record<string, PathRule>> = {
  kinokuniya: { path: /^\/f\/dsg-\d{2}-(?<isbn>97[89]\d{10})\/?$/i },
};

export const LOCAL_SHOPS: readonly StoreRule[] = SHOPS.map(([store, hosts]) => {
  const product = PRODUCTS[store];
  return { store, hosts, patterns: product ? [product, SEARCH] : [SEARCH] };
});
