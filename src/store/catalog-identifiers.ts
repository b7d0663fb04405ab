import type { Kysely } from 'kysely';
import type { CatalogEntryRow, Database } from './schema.js';

/**
 * Scheme names a caller may use for the one the index stores: a WorldCat URL's id is an OCLC number,
 * and an `isbn` is stored under the form it has.
 */
const SCHEME_ALIASES: Readonly<Record<string, string>> = { worldcat: 'oclc', amazon: 'asin' };

export function indexedScheme(scheme: string, value: string): string {
  if (scheme === 'isbn') return value.length === 10 ? 'isbn10' : 'isbn13';
  return SCHEME_ALIASES[scheme] ?? scheme;
}

/**
 * Catalog entries holding `scheme = value`, most popular first: one probe of the identifier index's
 * primary key, then the entries by id.
 */
export function catalogEntriesByIdentifier(
  db: Kysely<Database>,
  scheme: string,
  value: string,
  limit: number,
): Promise<CatalogEntryRow[]> {
  return db
    .selectFrom('catalog_identifiers as i')
    .innerJoin('catalog_entries as c', 'c.id', 'i.entry_id')
    .selectAll('c')
    .where('i.scheme', '=', indexedScheme(scheme, value))
    .where('i.value', '=', value)
    .orderBy('c.popularity', 'desc')
    .orderBy('c.id')
    .limit(limit)
    .execute();
}

/** Every (scheme, value) the index holds for one entry, for tests and the admin area. */
export async function identifiersOfEntry(db: Kysely<Database>, entryId: number) {
  return db
    .selectFrom('catalog_identifiers')
    .select(['scheme', 'value'])
    .where('entry_id', '=', entryId)
    .orderBy('scheme')
    .orderBy('value')
    .execute();
}
