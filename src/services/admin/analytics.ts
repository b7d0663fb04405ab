import { bookLabels, searchStats } from '../../store/admin-search-stats.js';
import {
  addDays,
  type Count,
  clickCounts,
  type Dimension,
  dayOf,
  type Range,
} from '../../store/analytics.js';
import { firstClickDay, type RollupState, rollupState } from '../../store/analytics-rollup.js';
import { listAllDestinations } from '../../store/destinations.js';
import { visitTotals } from '../../store/partner-analytics.js';
import type { Db } from '../../store/schema.js';
import { type RollupWorker, type RollupWorkerOptions, startRollupWorker } from './analytics-rollup.js';
import { attributionCsv, attributionTops } from './attribution.js';
import { csvText, labelledCountsCsv } from './csv.js';
import { type LabelledCount, type Period, rangeForDays } from './periods.js';

export type { SearchStats } from '../../store/admin-search-stats.js';
export type { RollupWorker } from './analytics-rollup.js';
export { type LabelledCount, type Period, rangeForDays } from './periods.js';

export interface Snapshot {
  range: Range;
  state: RollupState;
  /** Set while the back-fill has not reached the oldest click: days before it are not counted yet. */
  pendingBefore: string | null;
}

/**
 * Reads the roll-up state and every count in one repeatable-read transaction: a roll-up step committed
 * in between would otherwise count its day twice (in the monthly row and in the raw clicks).
 */
export async function withSnapshot<T>(
  db: Db,
  period: Period,
  now: Date,
  read: (trx: Db, snapshot: Snapshot) => Promise<T>,
): Promise<T> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const state = await rollupState(trx);
      const first = await firstClickDay(trx);
      const range =
        period === 'all'
          ? { from: first ?? dayOf(now), to: addDays(dayOf(now), 1) }
          : rangeForDays(period, now);
      const behind = first !== null && (state.from === null || first < state.from);
      return read(trx, { range, state, pendingBefore: behind ? (state.from ?? dayOf(now)) : null });
    });
}

/** Every day of the range, zero where nothing was clicked, so the chart has no gaps. */
export function dailySeries(range: Range, counts: readonly Count[]): Array<{ day: string; clicks: number }> {
  const byDay = new Map(counts.map((count) => [count.key, count.clicks]));
  const series: Array<{ day: string; clicks: number }> = [];
  for (let day = range.from; day < range.to; day = addDays(day, 1))
    series.push({ day, clicks: byDay.get(day) ?? 0 });
  return series;
}

/** Counts with human labels and a link to the admin page where the thing can be changed. */
export async function labelled(
  db: Db,
  dimension: Dimension,
  counts: readonly Count[],
): Promise<LabelledCount[]> {
  if (dimension === 'destination') {
    const names = new Map((await listAllDestinations(db)).map((d) => [String(d.id), d.displayName]));
    return counts.map((c) => ({
      ...c,
      label: names.get(c.key) ?? `Destination ${c.key}`,
      href: `/admin/destinations/${c.key}`,
    }));
  }
  if (dimension === 'book') {
    const books = await bookLabels(db, counts.map((c) => Number(c.key)).filter(Number.isInteger));
    return counts.map((c) => ({
      ...c,
      label: books.get(Number(c.key))?.title ?? `Book ${c.key}`,
      href: `/admin/books/${c.key}`,
    }));
  }
  const fallback = dimension === 'country' ? 'Unknown' : 'Direct or hidden';
  return counts.map((c) => ({ ...c, label: c.key || fallback, href: null }));
}

export const TOP_TITLES: Readonly<Record<Dimension, string>> = {
  destination: 'By destination',
  book: 'By book',
  country: 'By country',
  referrer: 'By referring site',
};

export async function dashboard(db: Db, period: Period, now = new Date()) {
  // Labels and search figures are read in the same transaction: on SQLite's single connection a page
  // then waits at most once for a back-fill step, not once per query.
  return withSnapshot(db, period, now, async (trx, { range, state, pendingBefore }) => {
    const perDay = await clickCounts(trx, 'day', range, state, now);
    const tops = [];
    for (const dimension of Object.keys(TOP_TITLES) as Dimension[]) {
      const counts = await clickCounts(trx, dimension, range, state, now, 10);
      tops.push({
        key: dimension,
        title: TOP_TITLES[dimension],
        rows: await labelled(trx, dimension, counts),
      });
    }
    return {
      period,
      total: perDay.reduce((sum, count) => sum + count.clicks, 0),
      series: dailySeries(range, perDay),
      pendingBefore,
      tops,
      search: await searchStats(trx, `${range.from}T00:00:00.000Z`),
      attribution: await attributionTops(trx, range),
      visits: await visitTotals(trx, range.from),
    };
  });
}

export async function analyticsCsv(
  db: Db,
  by: Dimension | 'day',
  period: Period,
  now = new Date(),
): Promise<string> {
  const { range, counts, rows } = await withSnapshot(db, period, now, async (trx, snapshot) => {
    const counts = await clickCounts(trx, by, snapshot.range, snapshot.state, now, 100_000);
    return { range: snapshot.range, counts, rows: by === 'day' ? [] : await labelled(trx, by, counts) };
  });
  if (by === 'day') {
    const series = dailySeries(range, counts);
    return csvText(
      ['day', 'clicks'],
      series.map((point) => [point.day, point.clicks]),
    );
  }
  return labelledCountsCsv(by, rows);
}

/** What the analytics CSV can be broken down by: clicks per day, per dimension, or per partner/placement. */
export type CsvBreakdown = Dimension | 'day' | 'partner' | 'src';

/** The dashboard, its CSV exports, and the roll-up worker that keeps their figures current. */
export class AdminAnalytics {
  constructor(private readonly db: Db) {}

  dashboard(period: Period) {
    return dashboard(this.db, period);
  }

  csv(by: CsvBreakdown, period: Period): Promise<string> {
    return by === 'partner' || by === 'src'
      ? attributionCsv(this.db, by, period)
      : analyticsCsv(this.db, by, period);
  }

  /** Roll-ups and their back-fill run beside the server, never inside a page request. */
  startRollups(options: RollupWorkerOptions): RollupWorker {
    return startRollupWorker(this.db, options);
  }
}
