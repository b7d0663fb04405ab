import { type List, listRowToList } from '../../store/lists.js';
import type { Db } from '../../store/schema.js';

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
