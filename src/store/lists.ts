import { randomInt } from 'node:crypto';
import type { Generated, Selectable } from 'kysely';
import { newListId } from '../domain/list-ids.js';
import { nowIso } from './db.js';
import type { Db } from './schema.js';

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
  /** What the list's addresses carry (migration 0025): the old numeric id as text, or a random one. */
  public_id: string;
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

export interface List {
  /** The row's key: internal (admin area, audit, items); never in a public address. */
  id: number;
  /** The id of every public address and of the API (domain/list-ids.ts). */
  publicId: string;
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
    publicId: row.public_id,
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

/** Draws before giving up: a collision is already a one-in-10^12 event while lists number millions. */
const PUBLIC_ID_ATTEMPTS = 5;

/**
 * A new list with a random public id. A drawn id already taken inserts nothing (`on conflict do
 * nothing`, which leaves a PostgreSQL transaction usable, unlike a failed insert) and is drawn again.
 */
export async function insertList(db: Db, input: NewList): Promise<List> {
  const now = nowIso();
  for (let attempt = 0; attempt < PUBLIC_ID_ATTEMPTS; attempt++) {
    const row = await db
      .insertInto('lists')
      .values({
        public_id: newListId(randomInt),
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
      .onConflict((oc) => oc.column('public_id').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (row) return listRowToList(row);
  }
  throw new Error(`no free list public id in ${PUBLIC_ID_ATTEMPTS} draws`);
}

/** The list at a public address; its numeric key finds a new list nowhere (only old ids are both). */
export async function findListByPublicId(db: Db, publicId: string): Promise<List | null> {
  const row = await db.selectFrom('lists').selectAll().where('public_id', '=', publicId).executeTakeFirst();
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
