import { nowIso } from './db.js';
import type { Db } from './schema.js';

export async function workOf(
  db: Db,
  workId: number,
): Promise<{ id: number; canonicalBookId: number | null } | null> {
  const row = await db
    .selectFrom('works')
    .select(['id', 'canonical_book_id'])
    .where('id', '=', workId)
    .executeTakeFirst();
  return row
    ? {
        id: Number(row.id),
        canonicalBookId: row.canonical_book_id === null ? null : Number(row.canonical_book_id),
      }
    : null;
}

export async function createWork(db: Db, title: string): Promise<number> {
  const row = await db
    .insertInto('works')
    .values({ work_key: null, title, canonical_book_id: null, created_at: nowIso() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function setBookWork(db: Db, bookId: number, workId: number | null): Promise<void> {
  await db
    .updateTable('books')
    .set({ work_id: workId, updated_at: nowIso() })
    .where('id', '=', bookId)
    .execute();
}

export async function setCanonical(db: Db, workId: number, bookId: number | null): Promise<void> {
  await db.updateTable('works').set({ canonical_book_id: bookId }).where('id', '=', workId).execute();
}

/** Slugs of every book of a work: each of their pages lists the others, so each must be refreshed. */
export async function slugsOfWork(db: Db, workId: number): Promise<string[]> {
  const rows = await db.selectFrom('books').select('slug').where('work_id', '=', workId).execute();
  return rows.map((row) => row.slug);
}
