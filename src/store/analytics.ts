import { type Kysely, sql } from 'kysely';
import type { AdminDb } from './admin-tables.js';
import { isUniqueViolation } from './errors.js';

/**
 * Click analytics over a roll-up. Finished days (older than yesterday, so late buffered clicks are
 * in) are summed once into `click_daily`; a report reads those rows plus the raw clicks of the days
 * not yet rolled up. With a year of clicks a report reads a few thousand rows, not a million.
 */
export const DIMENSIONS = ['destination', 'book', 'country', 'referrer'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

const KEY_SQL: Record<Dimension | 'total', string> = {
  total: "''",
  destination: 'cast(destination_id as text)',
  book: 'cast(book_id as text)',
  country: "coalesce(country, '')",
  referrer: "coalesce(referrer_host, '')",
};

export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);
export const addDays = (day: string, days: number): string =>
  dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));

async function rolledUntil(db: Kysely<unknown> | AdminDb): Promise<string | null> {
  const row = await (db as AdminDb)
    .selectFrom('click_rollup_state')
    .select('rolled_until')
    .where('id', '=', 1)
    .executeTakeFirst();
  return row?.rolled_until ?? null;
}

async function firstClickDay(db: AdminDb): Promise<string | null> {
  const row = await db
    .selectFrom('clicks')
    .select('created_at')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row ? row.created_at.slice(0, 10) : null;
}

async function rollRange(db: AdminDb, from: string, to: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('click_daily').where('day', '>=', from).where('day', '<', to).execute();
    for (const [dimension, key] of Object.entries(KEY_SQL)) {
      await sql`insert into click_daily (day, dimension, key, clicks)
        select substr(created_at, 1, 10), ${dimension}, ${sql.raw(key)}, count(*) from clicks
        where created_at >= ${from} and created_at < ${to}
        group by substr(created_at, 1, 10)${sql.raw(dimension === 'total' ? '' : `, ${key}`)}`.execute(trx);
    }
    await trx.updateTable('click_rollup_state').set({ rolled_until: to }).where('id', '=', 1).execute();
  });
}

/** Rolls up every finished day not yet rolled, a month per transaction. Returns the days rolled. */
export async function rollUpClicks(db: AdminDb, now = new Date()): Promise<number> {
  const cutoff = addDays(dayOf(now), -1);
  let from = (await rolledUntil(db)) ?? (await firstClickDay(db));
  let days = 0;
  while (from && from < cutoff) {
    const to = addDays(from, 31) < cutoff ? addDays(from, 31) : cutoff;
    try {
      await rollRange(db, from, to);
    } catch (error) {
      // Another instance rolled the same days at the same moment: its rows are as good as ours.
      if (!isUniqueViolation(error)) throw error;
      return days;
    }
    days += (Date.parse(to) - Date.parse(from)) / 86_400_000;
    from = to;
  }
  return days;
}

export interface Range {
  /** First day, inclusive (YYYY-MM-DD). */
  from: string;
  /** Day after the last, exclusive. */
  to: string;
}

/** Splits a range at the roll-up boundary: rolled days come from `click_daily`, the rest from `clicks`. */
async function split(db: AdminDb, range: Range): Promise<{ rolledTo: string; liveFrom: string }> {
  const boundary = (await rolledUntil(db)) ?? range.from;
  const rolledTo = boundary < range.to ? boundary : range.to;
  return { rolledTo, liveFrom: boundary > range.from ? boundary : range.from };
}

export interface Count {
  key: string;
  clicks: number;
}

/** Clicks per key of one dimension (or per day for `total`), the biggest first. */
export async function clickCounts(
  db: AdminDb,
  dimension: Dimension | 'day',
  range: Range,
  limit = 1000,
): Promise<Count[]> {
  const { rolledTo, liveFrom } = await split(db, range);
  const rolledDimension = dimension === 'day' ? 'total' : dimension;
  const rolledKey = dimension === 'day' ? 'day' : 'key';
  const liveKey = dimension === 'day' ? 'substr(created_at, 1, 10)' : KEY_SQL[dimension];
  const result = await sql<{ key: string; clicks: number }>`
    select k as key, sum(n) as clicks from (
      select ${sql.raw(rolledKey)} as k, clicks as n from click_daily
        where dimension = ${rolledDimension} and day >= ${range.from} and day < ${rolledTo}
      union all
      select ${sql.raw(liveKey)} as k, count(*) as n from clicks
        where created_at >= ${liveFrom} and created_at < ${range.to}
        group by ${sql.raw(liveKey)}
    ) merged
    group by k
    order by ${sql.raw(dimension === 'day' ? 'k asc' : 'sum(n) desc, k asc')}
    limit ${limit}`.execute(db);
  return result.rows.map((row) => ({ key: String(row.key), clicks: Number(row.clicks) }));
}
