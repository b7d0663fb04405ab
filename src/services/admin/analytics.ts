import { bookLabels, searchStats } from '../../store/admin-search-stats.js';
import { type AdminDb, baseDb } from '../../store/admin-tables.js';
import {
  addDays,
  type Count,
  clickCounts,
  type Dimension,
  dayOf,
  type Range,
  rollUpClicks,
} from '../../store/analytics.js';
import { listAllDestinations } from '../../store/destinations.js';

export interface LabelledCount {
  key: string;
  label: string;
  href: string | null;
  clicks: number;
}

export function rangeForDays(days: number, now = new Date()): Range {
  const today = dayOf(now);
  return { from: addDays(today, 1 - days), to: addDays(today, 1) };
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
  db: AdminDb,
  dimension: Dimension,
  counts: readonly Count[],
): Promise<LabelledCount[]> {
  if (dimension === 'destination') {
    const names = new Map((await listAllDestinations(baseDb(db))).map((d) => [String(d.id), d.displayName]));
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

export async function dashboard(db: AdminDb, days: number, now = new Date()) {
  await rollUpClicks(db, now);
  const range = rangeForDays(days, now);
  const perDay = await clickCounts(db, 'day', range);
  const tops = await Promise.all(
    (Object.keys(TOP_TITLES) as Dimension[]).map(async (dimension) => ({
      key: dimension,
      title: TOP_TITLES[dimension],
      rows: await labelled(db, dimension, await clickCounts(db, dimension, range, 10)),
    })),
  );
  return {
    days,
    total: perDay.reduce((sum, count) => sum + count.clicks, 0),
    series: dailySeries(range, perDay),
    tops,
    search: await searchStats(db, `${range.from}T00:00:00.000Z`),
  };
}

const csvCell = (value: string | number): string => {
  const text = String(value);
  // A leading = + - @ would run as a formula in a spreadsheet; a quote prefix keeps it text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

export async function analyticsCsv(
  db: AdminDb,
  by: Dimension | 'day',
  days: number,
  now = new Date(),
): Promise<string> {
  await rollUpClicks(db, now);
  const range = rangeForDays(days, now);
  if (by === 'day') {
    const series = dailySeries(range, await clickCounts(db, 'day', range));
    return ['day,clicks', ...series.map((point) => `${point.day},${point.clicks}`)].join('\n') + '\n';
  }
  const rows = await labelled(db, by, await clickCounts(db, by, range, 100_000));
  return (
    [
      `${by},label,clicks`,
      ...rows.map((row) => [row.key, row.label, row.clicks].map(csvCell).join(',')),
    ].join('\n') + '\n'
  );
}
