import type { CatalogEntryRow, Db } from './schema.js';

/** The most popular imported entry for an ISBN-13. */
export function findCatalogEntryByIsbn13(db: Db, isbn13: string): Promise<CatalogEntryRow | undefined> {
  return db
    .selectFrom('catalog_entries')
    .selectAll()
    .where('isbn13', '=', isbn13)
    .orderBy('popularity', 'desc')
    .executeTakeFirst();
}

/** Entries of the given sources sharing a title/author match key, most popular first. */
export function catalogEntriesOfMatchKey(
  db: Db,
  matchKey: string,
  sources: readonly string[],
  limit: number,
): Promise<Pick<CatalogEntryRow, 'source' | 'identifiers'>[]> {
  return db
    .selectFrom('catalog_entries')
    .select(['source', 'identifiers'])
    .where('match_key', '=', matchKey)
    .where('source', 'in', [...sources])
    .orderBy('popularity', 'desc')
    .limit(limit)
    .execute();
}
