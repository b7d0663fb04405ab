/**
 * The local catalogs and query mixes of the search benchmarks (bench/search/api.ts under wrk,
 * bench/search/cpu.ts for CPU per request), chosen with `--mix`:
 * - `invented` (the default): word lists, deterministic, no real data. Its vocabulary is 38 title words
 *   and 20 names, so every word matches a tenth or more of the catalog: a worst case for full-text
 *   search, which real titles rarely are.
 * - `search-dev`: the goodbooks-10k catalog and the 443 labelled queries of ../shared/data (exact and
 *   partial titles, title + author, misspellings), both read in place, never copied.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importCatalogFile } from '../../src/catalog/import/index.js';
import { openStore } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { refreshSearchStatistics } from '../../src/store/search/vocabulary.js';
import { addCatalogEntry } from '../../test/support/factories.js';

const ADJECTIVES = [
  'silent',
  'golden',
  'hidden',
  'broken',
  'distant',
  'burning',
  'last',
  'winter',
  'secret',
  'northern',
];
const NOUNS = [
  'river',
  'garden',
  'empire',
  'harbour',
  'kingdom',
  'lantern',
  'orchard',
  'voyage',
  'tower',
  'meadow',
];
const PLACES = [
  'of glass',
  'at dawn',
  'of salt',
  'in the dark',
  'of the north',
  'below',
  'of ash',
  'and stone',
];
const FIRST = ['Ada', 'Bram', 'Clara', 'Dmitri', 'Elena', 'Farid', 'Greta', 'Hugo', 'Ines', 'Jonas'];
const LAST = [
  'Whitlock',
  'Okafor',
  'Lindqvist',
  'Moreau',
  'Tanaka',
  'Castell',
  'Brennan',
  'Novak',
  'Quill',
  'Reyes',
];

function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}
const pick = <T>(next: () => number, list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;

/** A valid, invented 979-prefixed ISBN-13 per entry. */
function isbnFor(n: number): string {
  const twelve = `979${String(100_000_000 + n).padStart(9, '0')}`;
  const sum = [...twelve].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${twelve}${(10 - (sum % 10)) % 10}`;
}

export interface Book {
  title: string;
  author: string;
}

/**
 * A fresh SQLite database under `dir` (or the empty database `url`) holding `entries` invented catalog
 * entries, its word list refreshed as an import leaves it.
 */
export async function catalog(
  dir: string,
  entries: number,
  url = `sqlite:${join(dir, 'search.db')}`,
): Promise<{ url: string; books: Book[] }> {
  const store = openStore(url);
  const next = random(42);
  const books: Book[] = [];
  try {
    await migrateToLatest(store);
    for (let n = 0; n < entries; n++) {
      const title = `The ${pick(next, ADJECTIVES)} ${pick(next, NOUNS)} ${pick(next, PLACES)}`;
      const author = `${pick(next, FIRST)} ${pick(next, LAST)}`;
      books.push({ title, author });
      await addCatalogEntry(store, {
        isbn13: isbnFor(n),
        title,
        authors: [author],
        format: 'paperback',
        popularity: Math.floor(next() * 100_000),
      });
    }
    // As every import ends: the catalog's word list, which spelling corrections read.
    await refreshSearchStatistics(store);
  } finally {
    await store.close();
  }
  return { url, books };
}

/** Titles, title + author, surnames with a title word, typos and authors: what readers type. */
export function queryMix(books: readonly Book[], count: number, seed = 7): string[] {
  const next = random(seed);
  const paths: string[] = [];
  for (let i = 0; i < count; i++) {
    const book = pick(next, books);
    const surname = book.author.split(' ')[1] ?? '';
    const kinds = [
      book.title,
      `${book.title} ${book.author}`,
      `${surname} ${book.title.split(' ')[2] ?? ''}`,
      book.title.replace(/([aeiou])/, '$1$1'),
      book.author,
    ];
    const q = kinds[i % kinds.length] ?? book.title;
    paths.push(`/api/v1/search?q=${encodeURIComponent(q.toLowerCase())}&source=bench`);
  }
  return paths;
}

const SHARED = resolve(import.meta.dirname, '../../../shared/data');
const GOODBOOKS = join(SHARED, 'goodbooks-10k/books.csv');
const SEARCH_DEV = join(SHARED, 'search-dev/queries.tsv');

/**
 * A fresh SQLite database under `dir` (or the empty database `url`, PostgreSQL too) holding the
 * goodbooks-10k catalog, imported as an operator would.
 */
export async function goodbooksCatalog(
  dir: string,
  url = `sqlite:${join(dir, 'search.db')}`,
): Promise<{ url: string }> {
  const store = openStore(url);
  try {
    await migrateToLatest(store);
    await importCatalogFile(store, GOODBOOKS, {
      format: 'csv',
      coversBaseUrl: 'https://covers.openlibrary.org',
    });
  } finally {
    await store.close();
  }
  return { url };
}

/** The search-dev queries as `/api/v1/search` paths, in file order. */
export function searchDevMix(): string[] {
  const lines = readFileSync(SEARCH_DEV, 'utf8').split('\n').slice(1);
  return lines
    .map((line) => line.split('\t')[0]?.trim() ?? '')
    .filter((query) => query !== '')
    .map((query) => `/api/v1/search?q=${encodeURIComponent(query)}&source=bench`);
}

export type Mix = 'invented' | 'search-dev';

/** The catalog and query paths of a mix (`entries` sizes the invented one). */
export async function searchMix(
  mix: string,
  dir: string,
  entries: number,
  /** An empty database to fill instead of a SQLite file under `dir` (PostgreSQL: `--database-url`). */
  databaseUrl?: string,
): Promise<{ url: string; paths: string[] }> {
  if (mix === 'search-dev')
    return { url: (await goodbooksCatalog(dir, databaseUrl)).url, paths: searchDevMix() };
  if (mix !== 'invented') throw new Error(`--mix ${mix}: expected invented or search-dev`);
  const { url, books } = await catalog(dir, entries, databaseUrl);
  return { url, paths: queryMix(books, 500) };
}
