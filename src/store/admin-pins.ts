import { sql } from 'kysely';
import { nowIso } from './db.js';
import type { Db } from './schema.js';

export interface PinRecord {
  id: number;
  queryKey: string;
  bookId: number;
  bookSlug: string;
  bookTitle: string;
  notes: string;
  createdAt: string;
  /** Logged searches with this folded query since the pin was made: how many readers it affected. */
  searches: number;
}

function pinsQuery(db: Db) {
  return db
    .selectFrom('search_pins as p')
    .innerJoin('books as b', 'b.id', 'p.book_id')
    .select([
      'p.id',
      'p.query_key',
      'p.book_id',
      'p.notes',
      'p.created_at',
      'b.slug as book_slug',
      'b.title as book_title',
      sql<number>`(select count(*) from searches s where s.query_key = p.query_key and s.created_at >= p.created_at)`.as(
        'searches',
      ),
    ]);
}

type PinRow = Awaited<ReturnType<ReturnType<typeof pinsQuery>['execute']>>[number];

const toPin = (row: PinRow): PinRecord => ({
  id: Number(row.id),
  queryKey: row.query_key,
  bookId: Number(row.book_id),
  bookSlug: row.book_slug,
  bookTitle: row.book_title,
  notes: row.notes,
  createdAt: row.created_at,
  searches: Number(row.searches),
});

export async function listPins(db: Db, bookId?: number): Promise<PinRecord[]> {
  let query = pinsQuery(db);
  if (bookId !== undefined) query = query.where('p.book_id', '=', bookId);
  return (await query.orderBy('p.id', 'desc').limit(500).execute()).map(toPin);
}

export async function findPin(db: Db, id: number): Promise<PinRecord | null> {
  const row = await pinsQuery(db).where('p.id', '=', id).executeTakeFirst();
  return row ? toPin(row) : null;
}

/** Returns null when this query already pins this book (unique per query and book). */
export async function insertPin(
  db: Db,
  queryKey: string,
  bookId: number,
  notes: string,
): Promise<number | null> {
  const row = await db
    .insertInto('search_pins')
    .values({ query_key: queryKey, book_id: bookId, notes, created_at: nowIso() })
    .onConflict((oc) => oc.columns(['query_key', 'book_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? Number(row.id) : null;
}

export async function deletePin(db: Db, id: number): Promise<void> {
  await db.deleteFrom('search_pins').where('id', '=', id).execute();
}
