import { nowIso } from './db.js';
import type { BookRow, CatalogEntryRow, Db } from './schema.js';

/** The most popular saved book with this title/author match key. */
export function bestBookByMatchKey(db: Db, key: string): Promise<BookRow | undefined> {
  return db
    .selectFrom('books')
    .selectAll()
    .where('match_key', '=', key)
    .orderBy('popularity', 'desc')
    .orderBy('id')
    .executeTakeFirst();
}

/** The catalog entry with this match key: entries with an ISBN first, then the most popular. */
export function bestCatalogEntryByMatchKey(db: Db, key: string): Promise<CatalogEntryRow | undefined> {
  return db
    .selectFrom('catalog_entries')
    .selectAll()
    .where('match_key', '=', key)
    .orderBy((eb) => eb.case().when('isbn13', 'is', null).then(1).else(0).end())
    .orderBy('popularity', 'desc')
    .executeTakeFirst();
}

export async function coverOfBook(db: Db, slug: string): Promise<string | null> {
  const row = await db.selectFrom('books').select('cover_url').where('slug', '=', slug).executeTakeFirst();
  return row?.cover_url ?? null;
}

/** Sets the cover of the book with this slug and ISBN when it differs; true when a row changed. */
export async function setBookCover(db: Db, slug: string, isbn13: string, coverUrl: string): Promise<boolean> {
  const result = await db
    .updateTable('books')
    .set({ cover_url: coverUrl, updated_at: nowIso() })
    .where('slug', '=', slug)
    .where('isbn13', '=', isbn13)
    .where((eb) => eb.or([eb('cover_url', 'is', null), eb('cover_url', '!=', coverUrl)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
