import { type IdentifierPair, indexedScheme } from '../domain/identifiers.js';
import type { CatalogEntryRow, Db, NewCatalogEntryRow } from './schema.js';

/**
 * Catalog entries holding `scheme = value`, most popular first: one probe of the identifier index's
 * primary key, then the entries by id.
 */
export function catalogEntriesByIdentifier(
  db: Db,
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
export async function identifiersOfEntry(db: Db, entryId: number) {
  return db
    .selectFrom('catalog_identifiers')
    .select(['scheme', 'value'])
    .where('entry_id', '=', entryId)
    .orderBy('scheme')
    .orderBy('value')
    .execute();
}

/** `source` of the catalog entries that hold providers' answers rather than an importer's rows. */
export const PROVIDER_SOURCE = 'provider';

/**
 * Files a provider's answer in the catalog: the entry is inserted unless one with its key exists (an
 * imported entry, or an earlier answer, is never overwritten), then every identifier of the answer is
 * indexed against whichever entry holds the key. Answers the entry's id.
 */
export async function saveProviderEntry(
  db: Db,
  entry: NewCatalogEntryRow,
  identifiers: readonly IdentifierPair[],
): Promise<number> {
  await db
    .insertInto('catalog_entries')
    .values(entry)
    .onConflict((oc) => oc.column('entry_key').doNothing())
    .execute();
  const { id } = await db
    .selectFrom('catalog_entries')
    .select('id')
    .where('entry_key', '=', entry.entry_key)
    .executeTakeFirstOrThrow();
  const entryId = Number(id);
  if (identifiers.length > 0) {
    await db
      .insertInto('catalog_identifiers')
      .values(identifiers.map(([scheme, value]) => ({ scheme, value, entry_id: entryId })))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
  return entryId;
}
