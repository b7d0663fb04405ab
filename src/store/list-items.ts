import type { Transaction } from 'kysely';
import { type Book, bookRowToBook } from './books.js';
import { nowIso } from './db.js';
import { insertList, type List, type NewList } from './lists.js';
import type { Database, Db } from './schema.js';

/** The books of a list, in order. */
export interface ListItem {
  book: Book;
  position: number;
  rank: number | null;
}

/** Items in reading order: ranked items by rank, then the order they were added. */
export async function listItems(db: Db, listId: number): Promise<ListItem[]> {
  const rows = await db
    .selectFrom('list_items')
    .innerJoin('books', 'books.id', 'list_items.book_id')
    .selectAll('books')
    .select(['list_items.position as item_position', 'list_items.rank as item_rank'])
    .where('list_items.list_id', '=', listId)
    .orderBy((eb) => eb.case().when('list_items.rank', 'is', null).then(1).else(0).end())
    .orderBy('list_items.rank')
    .orderBy('list_items.position')
    .execute();
  return rows.map(({ item_position, item_rank, ...book }) => ({
    book: bookRowToBook(book),
    position: Number(item_position),
    rank: item_rank === null ? null : Number(item_rank),
  }));
}

/** How many books a list holds, and whether `bookId` is one of them. */
export async function listSize(
  db: Db,
  listId: number,
  bookId: number,
): Promise<{ books: number; contains: boolean }> {
  const row = await db
    .selectFrom('list_items')
    .select((eb) => [
      eb.fn.countAll<number>().as('books'),
      eb.fn.sum<number>(eb.case().when('book_id', '=', bookId).then(1).else(0).end()).as('matches'),
    ])
    .where('list_id', '=', listId)
    .executeTakeFirst();
  return { books: Number(row?.books ?? 0), contains: Number(row?.matches ?? 0) > 0 };
}

/** Adds a book at the end; false when it was already there. */
export async function addListItem(db: Db, listId: number, bookId: number, rank: number | null = null) {
  const last = await db
    .selectFrom('list_items')
    .select((eb) => eb.fn.max('position').as('max'))
    .where('list_id', '=', listId)
    .executeTakeFirst();
  const result = await db
    .insertInto('list_items')
    .values({
      list_id: listId,
      book_id: bookId,
      position: Number(last?.max ?? 0) + 1,
      rank,
      created_at: nowIso(),
    })
    .onConflict((oc) => oc.columns(['list_id', 'book_id']).doNothing())
    .executeTakeFirst();
  await touchList(db, listId);
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function removeListItem(db: Db, listId: number, bookId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('list_items')
    .where('list_id', '=', listId)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
  await touchList(db, listId);
  return Number(result.numDeletedRows) > 0;
}

async function touchList(db: Db, listId: number): Promise<void> {
  await db.updateTable('lists').set({ updated_at: nowIso() }).where('id', '=', listId).execute();
}

/** Replaces the list with this ingest key (if any) by a new one, inside the caller's transaction. */
export async function replaceIngestedList(
  trx: Transaction<Database>,
  input: NewList & { ingestKey: string },
  items: ReadonlyArray<{ bookId: number; rank: number | null }>,
): Promise<List> {
  await trx.deleteFrom('lists').where('ingest_key', '=', input.ingestKey).execute();
  const list = await insertList(trx, input);
  const now = nowIso();
  const rows = items.map((item, i) => ({
    list_id: list.id,
    book_id: item.bookId,
    position: i + 1,
    rank: item.rank,
    created_at: now,
  }));
  // Chunks keep each statement under SQLite's bound-parameter limit.
  for (let i = 0; i < rows.length; i += 100) {
    await trx
      .insertInto('list_items')
      .values(rows.slice(i, i + 100))
      .execute();
  }
  return list;
}
