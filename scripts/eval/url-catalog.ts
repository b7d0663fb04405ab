import { identifierPairs } from '../../src/catalog/import/writer.js';
import { parseIsbn } from '../../src/domain/isbn.js';
import { matchKey } from '../../src/domain/text.js';
import type { BookCreator } from '../../src/services/book-creator.js';
import { insertCatalogIdentifiers } from '../../src/store/catalog-import.js';
import type { Store } from '../../src/store/db.js';
import type { FakeBook, FakeService } from '../../test/support/fake-providers.js';

/** One row of urls.jsonl: what the URL carries, as labelled for the parser. */
export interface UrlRow {
  url: string;
  store: string | null;
  expect: { isbn13?: string; identifiers?: Record<string, string>; kind?: string; titleWords?: string };
}

/** One edition of url-catalog.jsonl; `work` groups editions; `saved` ones exist as books at the start. */
export interface UrlEntry {
  id: string;
  work: string;
  isbn13: string | null;
  title: string;
  /** A provider-only entry's subtitle, as the providers print it ("The Chronicles of Narnia, Book 4"). */
  subtitle?: string;
  authors: string[];
  format: string | null;
  language: string | null;
  identifiers: Record<string, string>;
  popularity: number;
  saved?: boolean;
  /** Not imported: only the fake providers know it (answering like the real APIs). */
  provider_only?: boolean;
  /** Which fake services know a provider-only entry (default all). */
  only?: FakeService[];
}

export interface UrlCatalog {
  entries: UrlEntry[];
  /** Title-only URLs (no ISBN, identifiers unknown to the catalog) → the work their words truly name. */
  titleLabels: Map<string, string>;
}

/**
 * The editions a right answer may be: the one holding the URL's ISBN or one of its identifiers, and
 * for a title-only URL any edition of the labelled work. None for a non-book page.
 */
export function expectedEntries(catalog: UrlCatalog, row: UrlRow): UrlEntry[] {
  if (row.expect.kind === 'not_book') return [];
  const ids = Object.entries(row.expect.identifiers ?? {});
  const work = catalog.titleLabels.get(row.url);
  return catalog.entries.filter(
    (entry) =>
      (entry.isbn13 !== null && entry.isbn13 === row.expect.isbn13) ||
      ids.some(([scheme, value]) => entry.identifiers[scheme] === value) ||
      (work !== undefined && entry.work === work),
  );
}

/** Whether a resolved book is this edition: same ISBN, or (ISBN-less) a shared identifier. */
export function matchesEntry(entry: UrlEntry, isbn13: string | null, ids: Record<string, string>): boolean {
  if (entry.isbn13) return entry.isbn13 === isbn13;
  return Object.entries(entry.identifiers).some(([scheme, value]) => ids[scheme] === value);
}

/** Loads the editions as catalog entries (as an import would) and saves the `saved` ones as books. */
export async function loadUrlCatalog(
  store: Store,
  creator: BookCreator,
  lines: readonly Record<string, unknown>[],
): Promise<UrlCatalog> {
  const entries = lines.filter((line) => typeof line.id === 'string') as unknown as UrlEntry[];
  const titleLabels = new Map(
    lines.flatMap((line) =>
      typeof line.title_url === 'string' && typeof line.work === 'string'
        ? [[line.title_url, line.work] as const]
        : [],
    ),
  );
  const now = new Date().toISOString();
  const imported = entries.filter((entry) => !entry.provider_only);
  const rows = await store.db
    .insertInto('catalog_entries')
    .values(
      imported.map((entry) => ({
        entry_key: entry.isbn13 ? `isbn:${entry.isbn13}` : `urleval:${entry.id}`,
        source: 'urleval',
        isbn13: entry.isbn13,
        isbn10: parseIsbn(entry.isbn13 ?? '')?.isbn10 ?? null,
        title: entry.title,
        subtitle: null,
        authors: JSON.stringify(entry.authors),
        published_date: null,
        publisher: null,
        cover_url: null,
        language: entry.language,
        format: entry.format,
        pages: null,
        description: null,
        identifiers: JSON.stringify(entry.identifiers),
        match_key: matchKey(entry.title, entry.authors),
        popularity: entry.popularity,
        updated_at: now,
      })),
    )
    .returningAll()
    .execute();
  // As an importer does: every identifier of every entry goes into the identifier index.
  const pairs = rows.flatMap((row) =>
    identifierPairs(row).map(([scheme, value]) => [scheme, value, row.id] as const),
  );
  await insertCatalogIdentifiers(store.db, store, pairs);
  for (const entry of imported.filter((e) => e.saved && e.isbn13)) {
    const isbn = parseIsbn(entry.isbn13 ?? '');
    if (isbn) await creator.byIsbn(isbn, true);
  }
  return { entries, titleLabels };
}

/** A provider-only entry as the fake providers serve it: ids where each real API keeps them. */
export function fakeBookOf(entry: UrlEntry): FakeBook | null {
  if (!entry.provider_only || !entry.isbn13) return null;
  const ids = entry.identifiers;
  return {
    isbn13: entry.isbn13,
    title: entry.title,
    ...(entry.subtitle ? { subtitle: entry.subtitle } : {}),
    authors: entry.authors,
    ...(ids.worldcat ? { oclc: ids.worldcat } : {}),
    ...(ids.goodreads ? { goodreads: ids.goodreads } : {}),
    ...(ids.librarything ? { librarything: ids.librarything } : {}),
    ...(ids.ol_edition ? { olEdition: ids.ol_edition } : {}),
    ...(ids.google_volume ? { googleId: ids.google_volume } : {}),
    ...(ids.apple_books ? { appleId: Number(ids.apple_books) } : {}),
    ...(entry.only ? { only: entry.only } : {}),
  };
}
