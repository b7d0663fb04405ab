import { identifierPairs } from '../../src/catalog/import/writer.js';
import type { BookRecord } from '../../src/catalog/types.js';
import { matchKey } from '../../src/domain/text.js';
import { insertCatalogIdentifiers } from '../../src/store/catalog-import.js';
import type { Store } from '../../src/store/db.js';

export interface CatalogFixture {
  isbn13?: string | null;
  isbn10?: string | null;
  title: string;
  authors?: string[];
  source?: string;
  entryKey?: string;
  publishedDate?: string | null;
  publisher?: string | null;
  coverUrl?: string | null;
  format?: string | null;
  identifiers?: Record<string, string>;
  popularity?: number;
}

/** Inserts one catalog entry, as an import would. */
export async function addCatalogEntry(store: Store, fixture: CatalogFixture): Promise<void> {
  const authors = fixture.authors ?? [];
  const source = fixture.source ?? 'test';
  const entry = await store.db
    .insertInto('catalog_entries')
    .values({
      entry_key:
        fixture.entryKey ?? (fixture.isbn13 ? `isbn:${fixture.isbn13}` : `${source}:${fixture.title}`),
      source,
      isbn13: fixture.isbn13 ?? null,
      isbn10: fixture.isbn10 ?? null,
      title: fixture.title,
      subtitle: null,
      authors: JSON.stringify(authors),
      published_date: fixture.publishedDate ?? null,
      publisher: fixture.publisher ?? null,
      cover_url: fixture.coverUrl ?? null,
      language: 'en',
      format: fixture.format ?? null,
      pages: null,
      description: null,
      identifiers: JSON.stringify(fixture.identifiers ?? {}),
      match_key: matchKey(fixture.title, authors),
      popularity: fixture.popularity ?? 0,
      updated_at: new Date().toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // Importers index every identifier of an entry; so does this stand-in for one.
  const pairs = identifierPairs(entry).map(([scheme, value]) => [scheme, value, entry.id] as const);
  await insertCatalogIdentifiers(store.db, store, pairs);
}

/**
 * A library's private catalogue link: not public, so only patrons holding an access code linked to it
 * see it. Returns the destination id; caches of the app are told about the change.
 */
export async function addPrivateLibrary(
  store: Store,
  events: { emit(event: 'destinations-changed'): unknown },
): Promise<number> {
  const now = new Date().toISOString();
  const row = await store.db
    .insertInto('destinations')
    .values({
      slug: 'springfield-library',
      display_name: 'Borrow from Springfield Library',
      group_name: 'library',
      url_template: 'https://catalog.springfield.example/search?isbn={isbn13}',
      base_url: 'https://catalog.springfield.example',
      short_name: 'Springfield',
      description: '',
      icon_url: '',
      brand_color: '',
      display_priority: 0,
      is_active: 1,
      is_public: 0,
      affiliate_param: '',
      affiliate_tag: '',
      countries: '',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  events.emit('destinations-changed');
  return Number(row.id);
}

/** A valid ISBN-13 in the 979-8 range for a number below a hundred million: invented books' ISBNs. */
export function inventedIsbn(n: number): string {
  const stem = `9798${String(n).padStart(8, '0')}`;
  const sum = [...stem].reduce((total, digit, i) => total + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${stem}${(10 - (sum % 10)) % 10}`;
}

/** Every row of the identifier index as `entry_key scheme=value`, sorted. */
export async function indexedIdentifiers(store: Pick<Store, 'db'>): Promise<string[]> {
  const rows = await store.db
    .selectFrom('catalog_identifiers as i')
    .innerJoin('catalog_entries as e', 'e.id', 'i.entry_id')
    .select(['e.entry_key', 'i.scheme', 'i.value'])
    .orderBy('e.entry_key')
    .orderBy('i.scheme')
    .orderBy('i.value')
    .execute();
  return rows.map((row) => `${row.entry_key} ${row.scheme}=${row.value}`);
}

/** A provider's record of a book: `fields` over empty defaults (English, no identifiers beyond the ISBNs). */
export function bookRecord(fields: Partial<BookRecord> & Pick<BookRecord, 'title'>): BookRecord {
  return {
    source: 'test',
    isbn13: null,
    isbn10: null,
    subtitle: null,
    authors: [],
    publishedDate: null,
    publisher: null,
    coverUrl: null,
    language: 'en',
    format: null,
    pages: null,
    description: null,
    identifiers: {},
    workKey: null,
    ...fields,
  };
}
