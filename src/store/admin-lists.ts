import { nowIso } from './db.js';
import { type List, type ListTable, listRowToList } from './lists.js';
import type { Db } from './schema.js';

/** Read side of the Lists area: plain queries, fresh from the database (no public cache involved). */
export async function findAdminList(db: Db, id: number): Promise<List | null> {
  // An id past the safe range cannot exist, and PostgreSQL would refuse it as out of range (a 500).
  if (!Number.isSafeInteger(id)) return null;
  const row = await db.selectFrom('lists').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? listRowToList(row) : null;
}

export interface ListRow {
  list: List;
  itemCount: number;
}
export interface ListFilter {
  q: string;
  kind: 'admin' | 'ingest' | 'reader' | null;
  offset: number;
  limit: number;
}

/** The Lists area's table: featured first, then the most recently changed; names matched by words. */
export async function findListsForAdmin(db: Db, filter: ListFilter): Promise<ListRow[]> {
  let query = db
    .selectFrom('lists')
    .selectAll('lists')
    .select((eb) =>
      eb
        .selectFrom('list_items')
        .select(eb.fn.countAll().as('n'))
        .whereRef('list_id', '=', 'lists.id')
        .as('item_count'),
    );
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  const q = filter.q.trim().toLowerCase();
  if (q) query = query.where((eb) => eb(eb.fn('lower', ['name']), 'like', `%${q.replace(/[%_\\]/g, '')}%`));
  const rows = await query
    .orderBy('is_featured', 'desc')
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return rows.map(({ item_count, ...row }) => ({
    list: listRowToList(row),
    itemCount: Number(item_count ?? 0),
  }));
}

export interface BookListRow {
  list: List;
  rank: number | null;
}

export async function listsOfBook(db: Db, bookId: number): Promise<BookListRow[]> {
  const rows = await db
    .selectFrom('lists')
    .innerJoin('list_items', 'list_items.list_id', 'lists.id')
    .selectAll('lists')
    .select('list_items.rank as item_rank')
    .where('list_items.book_id', '=', bookId)
    .orderBy('lists.updated_at', 'desc')
    .execute();
  return rows.map(({ item_rank, ...row }) => ({
    list: listRowToList(row),
    rank: item_rank === null ? null : Number(item_rank),
  }));
}

/** The list holding `key` (ingest and "book add list" find lists by it), other than `exceptId`. */
export async function findListByIngestKey(db: Db, key: string, exceptId?: number): Promise<List | null> {
  let query = db.selectFrom('lists').selectAll().where('ingest_key', '=', key);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const row = await query.executeTakeFirst();
  return row ? listRowToList(row) : null;
}

export type ListChanges = Partial<
  Pick<ListTable, 'name' | 'description' | 'list_date' | 'is_featured' | 'ingest_key'>
>;

/** Changes a list's columns and marks it changed now. */
export async function updateList(db: Db, listId: number, changes: ListChanges): Promise<void> {
  await db
    .updateTable('lists')
    .set({ ...changes, updated_at: nowIso() })
    .where('id', '=', listId)
    .execute();
}

/** Features a list without marking it changed (adding a book is the change). */
export async function featureList(db: Db, listId: number): Promise<void> {
  await db.updateTable('lists').set({ is_featured: 1 }).where('id', '=', listId).execute();
}

export interface ItemRank {
  book_id: number;
  rank: number | null;
}

export function itemRanksOfList(db: Db, listId: number): Promise<ItemRank[]> {
  return db.selectFrom('list_items').select(['book_id', 'rank']).where('list_id', '=', listId).execute();
}

export async function setItemRank(
  db: Db,
  listId: number,
  bookId: number,
  rank: number | null,
): Promise<void> {
  await db
    .updateTable('list_items')
    .set({ rank })
    .where('list_id', '=', listId)
    .where('book_id', '=', bookId)
    .execute();
}

/** The book's item on the list, if it is there. */
export function findListItem(
  db: Db,
  listId: number,
  bookId: number,
): Promise<{ rank: number | null; position: number } | undefined> {
  return db
    .selectFrom('list_items')
    .select(['rank', 'position'])
    .where('list_id', '=', listId)
    .where('book_id', '=', bookId)
    .executeTakeFirst();
}

/** Deletes a list and its items. */
export async function deleteListAndItems(db: Db, listId: number): Promise<void> {
  await db.deleteFrom('list_items').where('list_id', '=', listId).execute();
  await db.deleteFrom('lists').where('id', '=', listId).execute();
}
