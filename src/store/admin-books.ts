import { sql } from 'kysely';
import { type Book, bookRowToBook } from './books.js';
import { nowIso } from './db.js';
import type { Db } from './schema.js';

/** Books for the admin search: an exact slug or ISBN first, then title or author matches, newest first. */
export async function findBooksForAdmin(
  db: Db,
  query: string,
  isbn13: string | null,
  limit = 50,
): Promise<Book[]> {
  const q = query.trim();
  if (!q) {
    const rows = await db.selectFrom('books').selectAll().orderBy('id', 'desc').limit(limit).execute();
    return rows.map(bookRowToBook);
  }
  const pattern = `%${q.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .selectFrom('books')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('slug', '=', q.toLowerCase()),
        ...(isbn13 ? [eb('isbn13', '=', isbn13)] : []),
        eb(sql`lower(title)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(authors)`, 'like', sql`${pattern} escape '\\'`),
      ]),
    )
    .orderBy(sql`case when slug = ${q.toLowerCase()} or isbn13 = ${isbn13 ?? ''} then 0 else 1 end`)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(bookRowToBook);
}

export interface BookEdit {
  title: string;
  authors: string[];
  isbn13: string | null;
  isbn10: string | null;
  coverUrl: string | null;
  description: string | null;
}

/** The slug is never part of an edit: it is the book's permanent address. */
export async function updateBookFields(db: Db, id: number, edit: BookEdit): Promise<void> {
  await db
    .updateTable('books')
    .set({
      title: edit.title,
      authors: JSON.stringify(edit.authors),
      isbn13: edit.isbn13,
      isbn10: edit.isbn10,
      cover_url: edit.coverUrl,
      description: edit.description,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .execute();
}

export async function isbnTakenByOther(db: Db, isbn13: string, bookId: number): Promise<boolean> {
  const row = await db
    .selectFrom('books')
    .select('id')
    .where('isbn13', '=', isbn13)
    .where('id', '<>', bookId)
    .executeTakeFirst();
  return !!row;
}

export interface OverrideRecord {
  id: number;
  retailerKey: string;
  overrideUrl: string;
  notes: string;
}

export async function overridesOf(db: Db, bookId: number): Promise<OverrideRecord[]> {
  const rows = await db
    .selectFrom('link_overrides')
    .selectAll()
    .where('book_id', '=', bookId)
    .orderBy('retailer_key')
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    retailerKey: row.retailer_key,
    overrideUrl: row.override_url,
    notes: row.notes,
  }));
}

/** One override per book and retailer: a second one for the same retailer replaces the first. */
export async function upsertOverride(
  db: Db,
  bookId: number,
  retailerKey: string,
  url: string,
  notes: string,
): Promise<void> {
  await db
    .insertInto('link_overrides')
    .values({ book_id: bookId, retailer_key: retailerKey, override_url: url, notes, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['book_id', 'retailer_key']).doUpdateSet({ override_url: url, notes }))
    .execute();
}

export async function deleteOverride(db: Db, bookId: number, retailerKey: string): Promise<number> {
  const result = await db
    .deleteFrom('link_overrides')
    .where('book_id', '=', bookId)
    .where('retailer_key', '=', retailerKey)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
