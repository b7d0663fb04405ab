import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'csv-parse/sync';
import { splitSeries } from '../../src/catalog/import/csv.js';
import { parseIsbn } from '../../src/domain/isbn.js';
import type { CatalogFakeBook, GoogleSeries } from '../../test/support/fake-providers.js';
import type { EvalEntry, EvalQuery } from './fixtures.js';

/** Where the labelled query set lives beside the repository (read in place, never copied). */
export function sharedDataDir(): string | null {
  const repo = join(import.meta.dirname, '..', '..');
  const candidates = [
    process.env.BOOKLINK_SHARED_DATA,
    join(repo, '..', 'shared', 'data'),
    join(repo, '..', '..', 'shared', 'data'),
  ];
  for (const dir of candidates) {
    if (
      dir &&
      existsSync(join(dir, 'search-dev', 'queries.tsv')) &&
      existsSync(join(dir, 'goodbooks-10k', 'books.csv'))
    ) {
      return resolve(dir);
    }
  }
  return null;
}

/** A query of queries.tsv, and whether its book is in the local half or known only to providers. */
export interface GoodbooksQuery extends EvalQuery {
  held: 'local' | 'provider' | 'none';
}

export interface Goodbooks {
  /** Every book (the whole catalog, for MiniSearch and the providers). */
  all: EvalEntry[];
  /** Even book_ids: imported into the local catalog. */
  local: EvalEntry[];
  /** What the fake providers serve: every book, as the real services describe it. */
  providerBooks: CatalogFakeBook[];
  queries: GoodbooksQuery[];
}

type Row = Record<string, string>;

const work = (bookId: string) => `gb:${bookId}`;

/** "Harry Potter, #2" → name and number; "Discworld, #1-3" and notes without a number → null. */
function seriesOf(note: string | null): { name: string; number: number } | null {
  const match = note ? /^(.+?),?\s*#(\d+)$/.exec(note.trim()) : null;
  return match?.[1] && match[2] ? { name: match[1], number: Number(match[2]) } : null;
}

/**
 * Google prints a series in the subtitle of some volumes ("Vampire Academy, Book 2") and not of
 * others; half of the series volumes carry it, chosen by id so both catalog halves are alike.
 * Open Library search documents and iTunes titles carry no series (nor Google's, see `googleSeries`).
 */
function googleSubtitle(bookId: number, note: string | null): string | undefined {
  const series = seriesOf(note);
  if (!series || Math.floor(bookId / 2) % 2 === 1) return undefined;
  return `${series.name}, Book ${series.number}`;
}

/**
 * Google places some volumes in a series of its own (`seriesInfo`: an id and the volume's number, no
 * name), but rarely: a public survey of answers found it on about one volume in a hundred, mostly
 * comics and manga, and these are mostly novels. One series volume in ten carries it here (chosen by
 * id, apart from the subtitle's half), which is already kinder than the real API.
 */
function googleSeries(bookId: number, note: string | null): GoogleSeries | undefined {
  const series = seriesOf(note);
  if (!series || Math.floor(bookId / 2) % 10 !== 0) return undefined;
  const id = `s${createHash('sha1').update(series.name.toLowerCase()).digest('hex').slice(0, 12)}`;
  return { id, name: series.name, number: series.number };
}

function authorsOf(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** goodbooks-10k books.csv (its ISBN-13 column is a float: the ISBN-10 column is the reliable one). */
export function loadGoodbooks(dir: string): Goodbooks {
  const rows = parse(readFileSync(join(dir, 'goodbooks-10k', 'books.csv'), 'utf8'), {
    columns: true,
    skip_empty_lines: true,
  }) as Row[];
  const all: EvalEntry[] = [];
  const providerBooks: CatalogFakeBook[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const id = row.book_id ?? '';
    // A few rows share an ISBN-10: the first (more popular) keeps it, as an import would.
    const parsed = parseIsbn((row.isbn ?? '').padStart(10, '0'));
    const isbn = parsed && !seen.has(parsed.isbn13) ? parsed : null;
    if (isbn) seen.add(isbn.isbn13);
    const rawTitle = row.title ?? '';
    const { title, series } = splitSeries(rawTitle);
    const year = Number.parseFloat(row.original_publication_year ?? '');
    const authors = authorsOf(row.authors ?? '');
    all.push({
      id,
      work: work(id),
      isbn13: isbn?.isbn13 ?? null,
      isbn10: isbn?.isbn10 ?? null,
      title: rawTitle,
      authors,
      published_date: Number.isFinite(year) && year > 0 ? String(year) : null,
      format: null,
      language: (row.language_code ?? '').slice(0, 2) || null,
      popularity: Number(row.ratings_count ?? 0),
      cover_url: null,
      trade: true,
      ...(row.original_title && row.original_title !== title ? { original_title: row.original_title } : {}),
    });
    providerBooks.push({
      id,
      isbn13: isbn?.isbn13 ?? null,
      isbn10: isbn?.isbn10 ?? null,
      title,
      authors,
      year: Number.isFinite(year) ? year : null,
      editionCount: Number(row.books_count ?? 1),
      googleSubtitle: googleSubtitle(Number(id), series),
      googleSeries: googleSeries(Number(id), series),
    });
  }
  const queries = parse(readFileSync(join(dir, 'search-dev', 'queries.tsv'), 'utf8'), {
    columns: true,
    delimiter: '\t',
    quote: false,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as Row[];
  return {
    all,
    local: all.filter((entry) => Number(entry.id) % 2 === 0),
    providerBooks,
    queries: queries.map((row) => {
      const id = row.expected_book_id?.trim() ?? '';
      return {
        q: row.query ?? '',
        kind: row.kind ?? '',
        expect: id ? work(id) : null,
        isbn: row.expected_isbn13?.trim() || null,
        held: !id ? 'none' : Number(id) % 2 === 0 ? 'local' : 'provider',
      };
    }),
  };
}
