import type { Generated, Kysely, Selectable, Transaction } from 'kysely';
import { nowIso } from './db.js';
import type { Database } from './schema.js';

// The tables of migration 0006, merged into the shared Database type from here so that the readers'
// features stay in their own files.
declare module './schema.js' {
  interface Database {
    lists: ListTable;
    list_items: ListItemTable;
  }
}

export interface ListTable {
  id: Generated<number>;
  kind: ListKind;
  name: string | null;
  description: string | null;
  edit_token_hash: string | null;
  source: string | null;
  list_date: string | null;
  destination_slug: string | null;
  is_featured: number;
  ingest_key: string | null;
  created_at: string;
  updated_at: string;
}

export interface ListItemTable {
  list_id: number;
  book_id: number;
  position: number;
  rank: number | null;
  created_at: string;
}

export type ListKind = 'reader' | 'ingest' | 'admin';
export type Db = Kysely<Database> | Transaction<Database>;

export interface List {
  id: number;
  kind: ListKind;
  name: string | null;
  description: string | null;
  editTokenHash: string | null;
  source: string | null;
  listDate: string | null;
  destinationSlug: string | null;
  featured: boolean;
  createdAt: string;
  updatedAt: string;
}

export function listRowToList(row: Selectable<ListTable>): List {
  return {
    id: Number(row.id),
    kind: row.kind,
    name: row.name,
    description: row.description,
    editTokenHash: row.edit_token_hash,
    source: row.source,
    listDate: row.list_date,
    destinationSlug: row.destination_slug,
    featured: Number(row.is_featured) === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface NewList {
  kind: ListKind;
  name: string | null;
  description?: string | null;
  editTokenHash?: string | null;
  source?: string | null;
  listDate?: string | null;
  destinationSlug?: string | null;
  featured?: boolean;
  ingestKey?: string | null;
}

export async function insertList(db: Db, input: NewList): Promise<List> {
  const now = nowIso();
  const row = await db
    .insertInto('lists')
    .values({
      kind: input.kind,
      name: input.name,
      description: input.description ?? null,
      edit_token_hash: input.editTokenHash ?? null,
      source: input.source ?? null,
      list_date: input.listDate ?? null,
      destination_slug: input.destinationSlug ?? null,
      is_featured: input.featured ? 1 : 0,
      ingest_key: input.ingestKey ?? null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return listRowToList(row);
}

export async function findList(db: Db, id: number): Promise<List | null> {
  const row = await db.selectFrom('lists').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? listRowToList(row) : null;
}

export async function updateList(
  db: Db,
  id: number,
  changes: { name?: string | null; description?: string | null; featured?: boolean },
): Promise<void> {
  await db
    .updateTable('lists')
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.featured !== undefined ? { is_featured: changes.featured ? 1 : 0 } : {}),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteList(db: Db, id: number): Promise<void> {
  await db.deleteFrom('lists').where('id', '=', id).execute();
}

export interface ListSummary {
  list: List;
  bookCount: number;
  containsBook: boolean | null;
}

/** The lists whose edit-token hashes are given; `bookId` also says whether each one holds that book. */
export async function listsByTokenHashes(
  db: Db,
  hashes: readonly string[],
  bookId: number | null,
): Promise<ListSummary[]> {
  if (hashes.length === 0) return [];
  const rows = await db
    .selectFrom('lists')
    .selectAll('lists')
    .select((eb) => [
      eb
        .selectFrom('list_items')
        .select(eb.fn.countAll().as('n'))
        .whereRef('list_id', '=', 'lists.id')
        .as('book_count'),
      eb
        .selectFrom('list_items')
        .select(eb.fn.countAll().as('n'))
        .whereRef('list_id', '=', 'lists.id')
        .where('book_id', '=', bookId ?? -1)
        .as('holds'),
    ])
    .where('edit_token_hash', 'in', [...hashes])
    .orderBy('updated_at', 'desc')
    .execute();
  return rows.map(({ book_count, holds, ...row }) => ({
    list: listRowToList(row),
    bookCount: Number(book_count ?? 0),
    containsBook: bookId === null ? null : Number(holds ?? 0) > 0,
  }));
}

export async function featuredLists(db: Db, limit: number): Promise<List[]> {
  const rows = await db
    .selectFrom('lists')
    .selectAll()
    .where('is_featured', '=', 1)
    .orderBy('updated_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map(listRowToList);
}
