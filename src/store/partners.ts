import type { PartnerTag } from '../domain/partners.js';
import { nowIso } from './db.js';
import type { Db } from './schema.js';

// Migration 0015's tables and click columns, merged into the shared Database type from here.
declare module './schema.js' {
  interface Database {
    partners: PartnerTable;
    partner_tags: PartnerTagTable;
    page_visits: PageVisitTable;
  }
  interface ClickTable {
    partner_id: string | null;
    src: string | null;
  }
}

export interface PartnerTable {
  id: string;
  name: string;
  contact: string;
  is_active: number;
  api_key_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface PartnerTagTable {
  partner_id: string;
  destination_slug: string;
  country: string;
  tag: string;
}

export interface PageVisitTable {
  day: string;
  audience: string;
  src: string;
  visits: number;
}

export type { PartnerTag };

export interface Partner {
  id: string;
  name: string;
  contact: string;
  isActive: boolean;
  apiKeyId: number | null;
  tags: PartnerTag[];
  createdAt: string;
  updatedAt: string;
}

export interface PartnerFields {
  name: string;
  contact: string;
  isActive: boolean;
  apiKeyId: number | null;
}

function rowToPartner(row: PartnerTable, tags: PartnerTagTable[]): Partner {
  return {
    id: row.id,
    name: row.name,
    contact: row.contact,
    isActive: row.is_active === 1,
    apiKeyId: row.api_key_id === null ? null : Number(row.api_key_id),
    tags: tags
      .filter((tag) => tag.partner_id === row.id)
      .map((tag) => ({ destinationSlug: tag.destination_slug, country: tag.country || null, tag: tag.tag })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findPartner(db: Db, id: string): Promise<Partner | null> {
  const row = await db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return null;
  const tags = await db
    .selectFrom('partner_tags')
    .selectAll()
    .where('partner_id', '=', id)
    .orderBy('destination_slug')
    .orderBy('country')
    .execute();
  return rowToPartner(row, tags);
}

export async function listPartners(db: Db): Promise<Partner[]> {
  const [rows, tags] = await Promise.all([
    db.selectFrom('partners').selectAll().orderBy('id').execute(),
    db.selectFrom('partner_tags').selectAll().orderBy('destination_slug').orderBy('country').execute(),
  ]);
  return rows.map((row) => rowToPartner(row, tags));
}

export async function insertPartner(db: Db, id: string, fields: PartnerFields): Promise<void> {
  const now = nowIso();
  await db
    .insertInto('partners')
    .values({
      id,
      name: fields.name,
      contact: fields.contact,
      is_active: fields.isActive ? 1 : 0,
      api_key_id: fields.apiKeyId,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function updatePartner(db: Db, id: string, fields: PartnerFields): Promise<void> {
  await db
    .updateTable('partners')
    .set({
      name: fields.name,
      contact: fields.contact,
      is_active: fields.isActive ? 1 : 0,
      api_key_id: fields.apiKeyId,
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .execute();
}

/** Adds or replaces the partner's tag for one destination and storefront. */
export async function upsertPartnerTag(db: Db, partnerId: string, tag: PartnerTag): Promise<void> {
  await db
    .insertInto('partner_tags')
    .values({
      partner_id: partnerId,
      destination_slug: tag.destinationSlug,
      country: tag.country ?? '',
      tag: tag.tag,
    })
    .onConflict((oc) =>
      oc.columns(['partner_id', 'destination_slug', 'country']).doUpdateSet({ tag: tag.tag }),
    )
    .execute();
  await db.updateTable('partners').set({ updated_at: nowIso() }).where('id', '=', partnerId).execute();
}

export async function deletePartnerTag(
  db: Db,
  partnerId: string,
  destinationSlug: string,
  country: string | null,
): Promise<boolean> {
  const result = await db
    .deleteFrom('partner_tags')
    .where('partner_id', '=', partnerId)
    .where('destination_slug', '=', destinationSlug)
    .where('country', '=', country ?? '')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The active partner whose optional API key this is, if any. */
export async function partnerIdForApiKey(db: Db, apiKeyId: number): Promise<string | null> {
  const row = await db
    .selectFrom('partners')
    .select('id')
    .where('api_key_id', '=', apiKeyId)
    .where('is_active', '=', 1)
    .orderBy('id')
    .executeTakeFirst();
  return row?.id ?? null;
}
