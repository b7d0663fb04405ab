import { sql } from 'kysely';
import { addDays, KEY_SQL, type RolledDimension, type RollupState, rollCutoff } from './analytics-rollup.js';
import type { Db } from './schema.js';

export { addDays, DIMENSIONS, type Dimension, dayOf, type RolledDimension } from './analytics-rollup.js';

/**
 * Click reports over the roll-ups. A range is read as whole months from `click_monthly`, the days of
 * its partial months from `click_daily`, and the days after the roll-up (yesterday and today) from the
 * raw clicks. A year by book then sums ~60k monthly rows instead of ~600k daily ones; the raw part is
 * two days. Days before the back-fill has reached (`rolled_from`) are left out until it gets there.
 */
export interface Range {
  /** First day, inclusive (YYYY-MM-DD). */
  from: string;
  /** Day after the last, exclusive. */
  to: string;
}

export interface Count {
  key: string;
  clicks: number;
}

interface Plan {
  /** Whole months read from `click_monthly`, `[from, to)` as YYYY-MM. */
  months: { from: string; to: string };
  /** Day intervals read from `click_daily` (the partial months at both ends). */
  days: Range[];
  /** Every rolled day of the range (the day series reads these from `click_daily`). */
  rolled: Range;
  /** Days read from the raw clicks. */
  live: Range;
}

const monthStart = (day: string) => `${day.slice(0, 7)}-01`;
const nextMonth = (day: string) => monthStart(addDays(monthStart(day), 31));
const max = (a: string, b: string) => (a > b ? a : b);
const min = (a: string, b: string) => (a < b ? a : b);

/** Splits a range over the three sources; `state` is what the roll-up holds right now. */
export function plan(range: Range, state: RollupState, now: Date): Plan {
  const cutoff = rollCutoff(now);
  const rolled = { from: state.from ?? cutoff, to: state.until ?? cutoff };
  const window = { from: max(range.from, rolled.from), to: min(range.to, rolled.to) };
  const days: Range[] = [];
  const months = { from: '', to: '' };
  for (let month = monthStart(window.from); month < window.to; month = nextMonth(month)) {
    // A monthly row holds the rolled days of its month: usable when all of them are in the window.
    const held = { from: max(month, rolled.from), to: min(nextMonth(month), rolled.to) };
    if (held.from >= window.from && held.to <= window.to) {
      months.from ||= month.slice(0, 7);
      months.to = nextMonth(month).slice(0, 7);
    } else {
      days.push({ from: max(month, window.from), to: min(nextMonth(month), window.to) });
    }
  }
  return {
    months,
    days,
    rolled: window,
    live: { from: max(range.from, rolled.to), to: range.to },
  };
}

function rolledRows(table: 'click_monthly' | 'click_daily', dimension: string, column: string, r: Range) {
  return sql`select key as k, clicks as n from ${sql.table(table)}
    where dimension = ${dimension} and ${sql.ref(column)} >= ${r.from} and ${sql.ref(column)} < ${r.to}`;
}

/** Clicks per key of one dimension, the biggest first; or per day (`day`), in order. */
export async function clickCounts(
  db: Db,
  dimension: RolledDimension | 'day',
  range: Range,
  state: RollupState,
  now: Date,
  limit = 1000,
): Promise<Count[]> {
  const p = plan(range, state, now);
  const parts =
    dimension === 'day'
      ? [
          sql`select day as k, clicks as n from click_daily
            where dimension = 'total' and day >= ${p.rolled.from} and day < ${p.rolled.to}`,
        ]
      : [
          rolledRows('click_monthly', dimension, 'month', p.months),
          ...p.days.map((days) => rolledRows('click_daily', dimension, 'day', days)),
        ];
  const liveKey = dimension === 'day' ? 'substr(created_at, 1, 10)' : KEY_SQL[dimension];
  parts.push(sql`select ${sql.raw(liveKey)} as k, count(*) as n from clicks
    where created_at >= ${p.live.from} and created_at < ${p.live.to} group by ${sql.raw(liveKey)}`);
  const result = await sql<{ key: string; clicks: number }>`
    select k as key, sum(n) as clicks from (${sql.join(parts, sql` union all `)}) merged
    group by k
    order by ${sql.raw(dimension === 'day' ? 'k asc' : 'sum(n) desc, k asc')}
    limit ${limit}`.execute(db);
  return result.rows.map((row) => ({ key: String(row.key), clicks: Number(row.clicks) }));
}
