import { readFileSync } from 'node:fs';
import { matchKey } from '../../src/domain/text.js';
import type { Store } from '../../src/store/db.js';

/** One edition of the labelled catalog; `work` and `trade` are labels, not stored. */
export interface EvalEntry {
  id: string;
  work: string;
  isbn13: string | null;
  isbn10: string | null;
  title: string;
  authors: string[];
  published_date: string | null;
  format: string | null;
  language: string | null;
  popularity: number;
  cover_url: string | null;
  trade: boolean;
}

export interface EvalQuery {
  q: string;
  kind: string;
  /** The work a reader means, or null when nothing in the catalog should match. */
  expect: string | null;
  /** The edition that should answer (the trade edition, or the one an ISBN names). */
  isbn: string | null;
}

export function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line, i) => {
      try {
        return JSON.parse(line) as T;
      } catch (error) {
        throw new Error(`${path}:${i + 1}: ${String(error)}`);
      }
    });
}

/** Loads the catalog as an importer would: one `catalog_entries` row per edition. */
export async function loadCatalog(store: Store, entries: readonly EvalEntry[]): Promise<void> {
  const now = new Date().toISOString();
  const rows = entries.map((entry) => ({
    entry_key: entry.isbn13 ? `isbn:${entry.isbn13}` : `eval:${entry.id}`,
    source: 'eval',
    isbn13: entry.isbn13,
    isbn10: entry.isbn10,
    title: entry.title,
    subtitle: null,
    authors: JSON.stringify(entry.authors),
    published_date: entry.published_date,
    publisher: null,
    cover_url: entry.cover_url,
    language: entry.language,
    format: entry.format,
    pages: null,
    description: null,
    identifiers: JSON.stringify({}),
    match_key: matchKey(entry.title, entry.authors),
    popularity: entry.popularity,
    updated_at: now,
  }));
  for (let i = 0; i < rows.length; i += 200) {
    await store.db
      .insertInto('catalog_entries')
      .values(rows.slice(i, i + 200))
      .execute();
  }
}
