import { sql } from 'kysely';
import { nowIso } from './db.js';
import type { Db } from './schema.js';

// Migrations 0029 and 0030's tables and click columns, merged into the shared Database type from here.
declare module './schema.js' {
  interface Database {
    affiliate_tags: AffiliateTagTable;
    book_visits: BookVisitTable;
  }
  interface ClickTable {
    storefront: string | null;
    tag_kind: string | null;
  }
}

export interface AffiliateTagTable {
  destination_id: number;
  /** '' for the destination's own store, else the ISO country of a storefront. */
  country: string;
  tag: string;
  updated_at: string;
}

export interface BookVisitTable {
  day: string;
  book_id: number;
  visits: number;
}

/** One tag the operator set in the admin area. */
export interface StoredAffiliateTag {
  destinationId: number;
  destinationSlug: string;
  /** Null for the destination's own store. */
  country: string | null;
  tag: string;
  updatedAt: string;
}

/** Every tag set in the admin area, with its destination's slug (the key links are built with). */
export async function listAffiliateTags(db: Db): Promise<StoredAffiliateTag[]> {
  const rows = await db
    .selectFrom('affiliate_tags')
    .innerJoin('destinations', 'destinations.id', 'affiliate_tags.destination_id')
    .select([
      'affiliate_tags.destination_id',
      'destinations.slug',
      'affiliate_tags.country',
      'affiliate_tags.tag',
      'affiliate_tags.updated_at',
    ])
    .orderBy('affiliate_tags.destination_id')
    .orderBy('affiliate_tags.country')
    .execute();
  return rows.map((row) => ({
    destinationId: Number(row.destination_id),
    destinationSlug: row.slug,
    country: row.country || null,
    tag: row.tag,
    updatedAt: row.updated_at,
  }));
}

export async function upsertAffiliateTag(
  db: Db,
  destinationId: number,
  country: string | null,
  tag: string,
): Promise<void> {
  const updatedAt = nowIso();
  await db
    .insertInto('affiliate_tags')
    .values({ destination_id: destinationId, country: country ?? '', tag, updated_at: updatedAt })
    .onConflict((oc) => oc.columns(['destination_id', 'country']).doUpdateSet({ tag, updated_at: updatedAt }))
    .execute();
}

/** True when there was a tag to remove. */
export async function deleteAffiliateTag(
  db: Db,
  destinationId: number,
  country: string | null,
): Promise<boolean> {
  const result = await db
    .deleteFrom('affiliate_tags')
    .where('destination_id', '=', destinationId)
    .where('country', '=', country ?? '')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Adds readers' visits to each book's day total (one upsert per book and day). */
export async function addBookVisits(
  db: Db,
  rows: ReadonlyArray<{ day: string; bookId: number; visits: number }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      await trx
        .insertInto('book_visits')
        .values({ day: row.day, book_id: row.bookId, visits: row.visits })
        .onConflict((oc) =>
          oc
            .columns(['day', 'book_id'])
            .doUpdateSet({ visits: sql<number>`book_visits.visits + excluded.visits` }),
        )
        .execute();
    }
  });
}

/** Readers' visits per book since `fromDay` (inclusive), the most visited first. */
export async function bookVisitTotals(
  db: Db,
  fromDay: string,
  bookIds?: readonly number[],
): Promise<Map<number, number>> {
  if (bookIds && bookIds.length === 0) return new Map();
  let query = db
    .selectFrom('book_visits')
    .select(['book_id', sql<number>`sum(visits)`.as('visits')])
    .where('day', '>=', fromDay);
  if (bookIds) query = query.where('book_id', 'in', [...bookIds]);
  const rows = await query.groupBy('book_id').orderBy(sql`sum(visits)`, 'desc').limit(100_000).execute();
  return new Map(rows.map((row) => [Number(row.book_id), Number(row.visits)]));
}

/** One book's clicks since `from` (ISO time) per destination, from the raw clicks (`clicks_book` index). */
export async function bookClicksByDestination(
  db: Db,
  bookId: number,
  from: string,
): Promise<Array<{ destinationId: number; name: string; clicks: number }>> {
  const rows = await db
    .selectFrom('clicks')
    .innerJoin('destinations', 'destinations.id', 'clicks.destination_id')
    .select(['clicks.destination_id', 'destinations.display_name', sql<number>`count(*)`.as('clicks')])
    .where('clicks.book_id', '=', bookId)
    .where('clicks.created_at', '>=', from)
    .groupBy(['clicks.destination_id', 'destinations.display_name'])
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('destinations.display_name')
    .execute();
  return rows.map((row) => ({
    destinationId: Number(row.destination_id),
    name: row.display_name,
    clicks: Number(row.clicks),
  }));
}
