import type { Generated, Selectable } from 'kysely';
import type { Destination } from '../domain/links.js';
import { nowIso } from './db.js';
import { destinationRowToDestination } from './destinations.js';
import type { Db } from './schema.js';

// Migration 0006's tables, merged into the shared Database type from here.
declare module './schema.js' {
  interface Database {
    access_codes: AccessCodeTable;
    access_code_destinations: AccessCodeDestinationTable;
  }
}

export interface AccessCodeTable {
  id: Generated<number>;
  display_name: string;
  slug: string;
  description: string;
  cookie_ttl_hours: number;
  is_active: number;
  created_at: string;
  updated_at: string;
}

export interface AccessCodeDestinationTable {
  access_code_id: number;
  destination_id: number;
}

export interface AccessCode {
  id: number;
  displayName: string;
  slug: string;
  description: string;
  cookieTtlHours: number;
  isActive: boolean;
}

function rowToAccessCode(row: Selectable<AccessCodeTable>): AccessCode {
  return {
    id: Number(row.id),
    displayName: row.display_name,
    slug: row.slug,
    description: row.description,
    cookieTtlHours: Number(row.cookie_ttl_hours),
    isActive: Number(row.is_active) === 1,
  };
}

export type AccessCodeInput = Omit<AccessCode, 'id'>;

export async function insertAccessCode(db: Db, input: AccessCodeInput): Promise<AccessCode> {
  const now = nowIso();
  const row = await db
    .insertInto('access_codes')
    .values({
      display_name: input.displayName,
      slug: input.slug,
      description: input.description,
      cookie_ttl_hours: input.cookieTtlHours,
      is_active: input.isActive ? 1 : 0,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return rowToAccessCode(row);
}

export async function updateAccessCode(
  db: Db,
  id: number,
  input: Omit<AccessCodeInput, 'slug'>,
): Promise<void> {
  await db
    .updateTable('access_codes')
    .set({
      display_name: input.displayName,
      description: input.description,
      cookie_ttl_hours: input.cookieTtlHours,
      is_active: input.isActive ? 1 : 0,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .execute();
}

export async function listAccessCodes(db: Db): Promise<AccessCode[]> {
  const rows = await db.selectFrom('access_codes').selectAll().orderBy('display_name').execute();
  return rows.map(rowToAccessCode);
}

export async function findAccessCode(db: Db, by: { id: number } | { slug: string }) {
  const query = db.selectFrom('access_codes').selectAll();
  const row = await ('id' in by
    ? query.where('id', '=', by.id)
    : query.where('slug', '=', by.slug)
  ).executeTakeFirst();
  return row ? rowToAccessCode(row) : null;
}

export async function deleteAccessCode(db: Db, id: number): Promise<void> {
  await db.deleteFrom('access_codes').where('id', '=', id).execute();
}

export async function linkDestination(db: Db, codeId: number, destinationId: number) {
  await db
    .insertInto('access_code_destinations')
    .values({ access_code_id: codeId, destination_id: destinationId })
    .onConflict((oc) => oc.columns(['access_code_id', 'destination_id']).doNothing())
    .execute();
}

export async function unlinkDestination(db: Db, codeId: number, destinationId: number) {
  await db
    .deleteFrom('access_code_destinations')
    .where('access_code_id', '=', codeId)
    .where('destination_id', '=', destinationId)
    .execute();
}

/** The destinations a code unlocks, active or not (the admin page shows both). */
export async function destinationsOfCode(db: Db, codeId: number): Promise<Destination[]> {
  const rows = await db
    .selectFrom('access_code_destinations')
    .innerJoin('destinations', 'destinations.id', 'access_code_destinations.destination_id')
    .selectAll('destinations')
    .where('access_code_destinations.access_code_id', '=', codeId)
    .orderBy('destinations.display_name')
    .execute();
  return rows.map((row) => destinationRowToDestination(row));
}

/** Destination ids unlocked by those of `codeIds` that are still active. */
export async function destinationIdsForCodes(db: Db, codeIds: readonly number[]): Promise<number[]> {
  if (codeIds.length === 0) return [];
  const rows = await db
    .selectFrom('access_code_destinations')
    .innerJoin('access_codes', 'access_codes.id', 'access_code_destinations.access_code_id')
    .select('access_code_destinations.destination_id')
    .where('access_codes.id', 'in', [...codeIds])
    .where('access_codes.is_active', '=', 1)
    .execute();
  return rows.map((row) => Number(row.destination_id));
}
