import { sql } from 'kysely';
import type { Db } from './schema.js';
import './partners.js';

/** One day's visits of one audience from one placement, as the visit counter adds them up. */
export interface VisitCount {
  day: string;
  audience: string;
  src: string;
  visits: number;
}

/** Adds counted visits to the day's totals (one upsert per row; a flush holds a handful of rows). */
export async function addPageVisits(db: Db, rows: readonly VisitCount[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (const row of rows) {
      await trx
        .insertInto('page_visits')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['day', 'audience', 'src'])
            .doUpdateSet({ visits: sql<number>`page_visits.visits + excluded.visits` }),
        )
        .execute();
    }
  });
}

/** Visits since `fromDay` (inclusive) by audience and placement, the biggest first. */
export async function visitTotals(
  db: Db,
  fromDay: string,
): Promise<Array<{ audience: string; src: string; visits: number }>> {
  const rows = await db
    .selectFrom('page_visits')
    .select(['audience', 'src', sql<number>`sum(visits)`.as('visits')])
    .where('day', '>=', fromDay)
    .groupBy(['audience', 'src'])
    .orderBy(sql`sum(visits)`, 'desc')
    .orderBy('audience')
    .orderBy('src')
    .execute();
  return rows.map((row) => ({ audience: row.audience, src: row.src, visits: Number(row.visits) }));
}

export type PartnerClickDimension = 'destination' | 'src' | 'day';

/** One partner's clicks since `from` (ISO time), from the raw clicks (indexed by partner and time). */
export async function partnerClickCounts(
  db: Db,
  partnerId: string,
  by: PartnerClickDimension,
  from: string,
): Promise<Array<{ key: string; clicks: number }>> {
  const key =
    by === 'destination'
      ? sql<string>`cast(destination_id as text)`
      : by === 'src'
        ? sql<string>`coalesce(src, '')`
        : sql<string>`substr(created_at, 1, 10)`;
  const rows = await db
    .selectFrom('clicks')
    .select([key.as('key'), sql<number>`count(*)`.as('clicks')])
    .where('partner_id', '=', partnerId)
    .where('created_at', '>=', from)
    .groupBy(key)
    .orderBy(by === 'day' ? key : sql`count(*)`, by === 'day' ? 'asc' : 'desc')
    .execute();
  return rows.map((row) => ({ key: String(row.key), clicks: Number(row.clicks) }));
}

export type AttributionDimension = 'partner' | 'src';

/**
 * Clicks per partner or per placement in `[from, to)` (ISO times), the biggest first. Read from the raw
 * clicks through the `(partner_id, created_at)` and `(src, created_at)` indexes: only attributed clicks
 * are visited, so the roll-ups need no extra dimensions.
 */
export async function attributionCounts(
  db: Db,
  by: AttributionDimension,
  from: string,
  to: string,
  limit: number,
): Promise<Array<{ key: string; clicks: number }>> {
  const column = by === 'partner' ? 'partner_id' : 'src';
  const rows = await db
    .selectFrom('clicks')
    .select([sql<string>`${sql.ref(column)}`.as('key'), sql<number>`count(*)`.as('clicks')])
    .where(column, '>', '')
    .where('created_at', '>=', from)
    .where('created_at', '<', to)
    .groupBy(column)
    .orderBy(sql`count(*)`, 'desc')
    .orderBy(column)
    .limit(limit)
    .execute();
  return rows.map((row) => ({ key: String(row.key), clicks: Number(row.clicks) }));
}
