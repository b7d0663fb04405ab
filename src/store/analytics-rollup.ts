import { sql } from 'kysely';
import type { Db } from './schema.js';

/**
 * Writes the click roll-ups. Finished days (older than yesterday, so late buffered clicks are in) are
 * counted once into `click_daily` and added to `click_monthly`. What is rolled is one interval of days,
 * `[rolled_from, rolled_until)`: new days extend it forward, and existing clicks are back-filled
 * backwards a day per step, so the recent views are complete first and no step is ever large.
 */
export const DIMENSIONS = ['destination', 'book', 'country', 'referrer'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
/**
 * Rolled up too, but no top list of its own: `earning` is destination, storefront and whose tag the
 * click carried (`12|GB|operator`), what the affiliate pages read. Clicks made before migration 0029
 * have neither (`12||`), and days rolled before it have no `earning` rows.
 */
export type RolledDimension = Dimension | 'earning';

/** How each dimension's key is read from a raw click; `total` has one key so the day series sums it. */
export const KEY_SQL: Readonly<Record<RolledDimension | 'total', string>> = {
  total: "''",
  destination: 'cast(destination_id as text)',
  book: 'cast(book_id as text)',
  country: "coalesce(country, '')",
  referrer: "coalesce(referrer_host, '')",
  earning: "cast(destination_id as text) || '|' || coalesce(storefront, '') || '|' || coalesce(tag_kind, '')",
};

export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);
export const addDays = (day: string, days: number): string =>
  dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000));
/** The first day not yet finished: days before it are rolled up. */
export const rollCutoff = (now: Date): string => addDays(dayOf(now), -1);

export interface RollupState {
  from: string | null;
  until: string | null;
}

export async function rollupState(db: Db): Promise<RollupState> {
  const row = await db
    .selectFrom('click_rollup_state')
    .select(['rolled_from', 'rolled_until'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return { from: row?.rolled_from ?? null, until: row?.rolled_until ?? null };
}

/** The day of the oldest click, from the `created_at` index (one index probe). */
export async function firstClickDay(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom('clicks')
    .select('created_at')
    .orderBy('created_at')
    .limit(1)
    .executeTakeFirst();
  return row ? row.created_at.slice(0, 10) : null;
}

/** Counts the clicks of days never rolled before; the caller holds the state lock. */
async function rollDays(db: Db, from: string, to: string): Promise<void> {
  for (const [dimension, key] of Object.entries(KEY_SQL)) {
    await sql`insert into click_daily (day, dimension, key, clicks)
      select substr(created_at, 1, 10), ${dimension}, ${sql.raw(key)}, count(*) from clicks
      where created_at >= ${from} and created_at < ${to}
      group by substr(created_at, 1, 10)${sql.raw(dimension === 'total' ? '' : `, ${key}`)}`.execute(db);
  }
  // Adding is exact because each day is rolled once, under the lock.
  await sql`insert into click_monthly (dimension, month, key, clicks)
    select dimension, substr(day, 1, 7), key, sum(clicks) from click_daily
    where day >= ${from} and day < ${to}
    group by dimension, substr(day, 1, 7), key
    on conflict (dimension, month, key) do update set clicks = click_monthly.clicks + excluded.clicks`.execute(
    db,
  );
}

export type RollStep = 'forward' | 'backward' | 'done';

/**
 * Rolls at most one day, in one transaction: the next finished day if any, else the day before the
 * oldest rolled one. The no-op update first takes the state row's lock (PostgreSQL) or the write lock
 * (SQLite), so two instances never roll the same day.
 */
export async function rollStep(db: Db, now = new Date()): Promise<RollStep> {
  return db.transaction().execute(async (trx) => {
    await sql`update click_rollup_state set id = id where id = 1`.execute(trx);
    const cutoff = rollCutoff(now);
    const state = await rollupState(trx);
    const from = state.from ?? cutoff;
    const until = state.until ?? cutoff;
    let step: RollStep = 'done';
    if (until < cutoff) {
      await rollDays(trx, until, addDays(until, 1));
      step = 'forward';
    } else {
      const first = await firstClickDay(trx);
      if (first !== null && first < from) {
        await rollDays(trx, addDays(from, -1), from);
        step = 'backward';
      }
    }
    const rolledFrom = step === 'backward' ? addDays(from, -1) : from;
    const rolledUntil = step === 'forward' ? addDays(until, 1) : until;
    await trx
      .updateTable('click_rollup_state')
      .set({ rolled_from: rolledFrom, rolled_until: rolledUntil })
      .where('id', '=', 1)
      .execute();
    return step;
  });
}

/** Rolls until nothing is left (tests, the bench); the server does the same a step at a time. */
export async function rollAll(db: Db, now = new Date()): Promise<number> {
  let steps = 0;
  while ((await rollStep(db, now)) !== 'done') steps += 1;
  return steps;
}
