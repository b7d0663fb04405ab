import { nowIso } from './db.js';
import type { Db, DestinationTable } from './schema.js';

/** Every editable column of a destination, in the store's own naming. */
export type DestinationColumns = Omit<DestinationTable, 'id' | 'created_at' | 'updated_at'>;

export async function insertDestination(db: Db, columns: DestinationColumns): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('destinations')
    .values({ ...columns, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateDestinationColumns(
  db: Db,
  id: number,
  columns: DestinationColumns,
): Promise<void> {
  await db
    .updateTable('destinations')
    .set({ ...columns, updated_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

/** The slug is free when no other destination has it, as its slug or as a former one. */
export async function slugTaken(db: Db, slug: string, exceptId: number | null): Promise<boolean> {
  const direct = await db.selectFrom('destinations').select('id').where('slug', '=', slug).executeTakeFirst();
  if (direct && Number(direct.id) !== exceptId) return true;
  const alias = await db
    .selectFrom('destination_aliases')
    .select('destination_id')
    .where('old_slug', '=', slug)
    .executeTakeFirst();
  return !!alias && Number(alias.destination_id) !== exceptId;
}

/** The old slug keeps redirecting to the renamed destination; its own former alias of the new slug goes. */
export async function renameSlug(db: Db, id: number, oldSlug: string, newSlug: string): Promise<void> {
  await db.deleteFrom('destination_aliases').where('old_slug', '=', newSlug).execute();
  await db
    .insertInto('destination_aliases')
    .values({ old_slug: oldSlug, destination_id: id })
    .onConflict((oc) => oc.column('old_slug').doUpdateSet({ destination_id: id }))
    .execute();
}

export async function aliasesOf(db: Db, id: number): Promise<string[]> {
  const rows = await db
    .selectFrom('destination_aliases')
    .select('old_slug')
    .where('destination_id', '=', id)
    .orderBy('old_slug')
    .execute();
  return rows.map((row) => row.old_slug);
}

/** Link counts per destination, for the list page. */
export async function linkCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('book_destination_links')
    .select(['destination_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('destination_id')
    .execute();
  return new Map(rows.map((row) => [Number(row.destination_id), Number(row.n)]));
}

export async function destinationIdExists(db: Db, id: number): Promise<boolean> {
  const row = await db.selectFrom('destinations').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}

export async function destinationSlugExists(db: Db, slug: string): Promise<boolean> {
  const row = await db.selectFrom('destinations').select('id').where('slug', '=', slug).executeTakeFirst();
  return row !== undefined;
}

export async function deactivateDestinationRow(db: Db, id: number): Promise<void> {
  await db.updateTable('destinations').set({ is_active: 0 }).where('id', '=', id).execute();
}

export interface StorefrontColumns {
  country: string;
  base_url: string;
  url_template: string;
}

/** The destination's storefronts become exactly `storefronts` (the form edits them as one list). */
export async function replaceStorefronts(
  db: Db,
  destinationId: number,
  storefronts: readonly StorefrontColumns[],
): Promise<void> {
  await db.deleteFrom('destination_storefronts').where('destination_id', '=', destinationId).execute();
  if (storefronts.length === 0) return;
  await db
    .insertInto('destination_storefronts')
    .values(storefronts.map((front) => ({ ...front, destination_id: destinationId })))
    .execute();
}
