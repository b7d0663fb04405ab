import { readFileSync } from 'node:fs';
import { splitSeries } from '../../src/catalog/import/csv.js';
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
  /** The series note when the title does not carry it ("Wren Hollow, #2"), as catalogs keep it. */
  series?: string;
  original_title?: string;
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

/**
 * The title and identifiers the CSV importer would store: a "(Series, #2)" note leaves the title
 * for `identifiers.series`, so the evaluation searches what a real import holds.
 */
function importedTitle(entry: EvalEntry): { title: string; identifiers: string } {
  const { title, series } = splitSeries(entry.title);
  const identifiers = { series: entry.series ?? series ?? undefined, original_title: entry.original_title };
  return { title, identifiers: JSON.stringify(identifiers) };
}

/** Loads the catalog as an importer would: one `catalog_entries` row per edition. */
export async function loadCatalog(store: Store, entries: readonly EvalEntry[]): Promise<void> {
  const now = new Date().toISOString();
  const rows = entries.map((entry) => ({
    ...importedTitle(entry),
    entry_key: entry.isbn13 ? `isbn:${entry.isbn13}` : `eval:${entry.id}`,
    source: 'eval',
    isbn13: entry.isbn13,
    isbn10: entry.isbn10,
    subtitle: null,
    authors: JSON.stringify(entry.authors),
    published_date: entry.published_date,
    publisher: null,
    cover_url: entry.cover_url,
    language: entry.language,
    format: entry.format,
    pages: null,
    description: null,
    match_key: matchKey(splitSeries(entry.title).title, entry.authors),
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
