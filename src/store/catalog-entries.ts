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
