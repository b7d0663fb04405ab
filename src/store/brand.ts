import type { BrandLogo, LogoType } from '../domain/brand.js';
import { nowIso } from './db.js';
import type { Db } from './schema.js';

// Migration 0031's table, merged into the shared Database type from here.
declare module './schema.js' {
  interface Database {
    brand_logos: BrandLogoTable;
  }
}

export interface BrandLogoTable {
  hash: string;
  content_type: string;
  bytes: Buffer;
  created_at: string;
}

/** The brand settings live in one `settings` row as JSON (migration 0009's table). */
const BRAND_KEY = 'brand';

/** The stored brand settings as parsed JSON, or null when the operator never saved any. */
export async function readBrandSettings(db: Db): Promise<unknown> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', BRAND_KEY).executeTakeFirst();
  if (!row) return null;
  try {
    return JSON.parse(row.value) as unknown;
  } catch {
    return null;
  }
}

/** Replaces the stored brand settings. */
export async function writeBrandSettings(db: Db, value: unknown): Promise<void> {
  const text = JSON.stringify(value);
  await db
    .insertInto('settings')
    .values({ key: BRAND_KEY, value: text })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: text }))
    .execute();
}

/** Keeps a logo under its hash (the same bytes twice are one row). */
export async function saveBrandLogo(db: Db, logo: BrandLogo, bytes: Buffer): Promise<void> {
  await db
    .insertInto('brand_logos')
    .values({ hash: logo.hash, content_type: logo.contentType, bytes, created_at: nowIso() })
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
}

/** Drops every logo but `keep` (the current one, or none). */
export async function pruneBrandLogos(db: Db, keep: string | null): Promise<void> {
  let query = db.deleteFrom('brand_logos');
  if (keep) query = query.where('hash', '!=', keep);
  await query.execute();
}

export async function findBrandLogo(
  db: Db,
  hash: string,
): Promise<{ contentType: LogoType; bytes: Buffer } | null> {
  const row = await db
    .selectFrom('brand_logos')
    .select(['content_type', 'bytes'])
    .where('hash', '=', hash)
    .executeTakeFirst();
  if (!row) return null;
  return { contentType: row.content_type as LogoType, bytes: Buffer.from(row.bytes) };
}
