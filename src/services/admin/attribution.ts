import { addDays, dayOf, type Range } from '../../store/analytics.js';
import { type AttributionDimension, attributionCounts } from '../../store/partner-analytics.js';
import { listPartners } from '../../store/partners.js';
import type { Db } from '../../store/schema.js';
import { labelledCountsCsv } from './csv.js';
import { type LabelledCount, type Period, rangeForDays } from './periods.js';

export const ATTRIBUTION_TITLES: Readonly<Record<AttributionDimension, string>> = {
  partner: 'By partner',
  src: 'By placement (src=)',
};

const isoRange = (range: Range) => [`${range.from}T00:00:00.000Z`, `${range.to}T00:00:00.000Z`] as const;

async function labelledAttribution(
  db: Db,
  by: AttributionDimension,
  range: Range,
  limit: number,
): Promise<LabelledCount[]> {
  const [from, to] = isoRange(range);
  const counts = await attributionCounts(db, by, from, to, limit);
  if (by === 'src') return counts.map((c) => ({ ...c, label: c.key, href: null }));
  const names = new Map((await listPartners(db)).map((p) => [p.id, p.name]));
  return counts.map((c) => ({
    ...c,
    label: `${names.get(c.key) ?? c.key} (${c.key})`,
    href: `/admin/partners/${encodeURIComponent(c.key)}`,
  }));
}

/** Clicks through partners' links and per placement word, for the dashboard (only attributed clicks). */
export async function attributionTops(db: Db, range: Range, limit = 10) {
  const tops = [];
  for (const by of ['partner', 'src'] as const) {
    tops.push({
      key: by,
      title: ATTRIBUTION_TITLES[by],
      rows: await labelledAttribution(db, by, range, limit),
    });
  }
  return tops;
}

/** CSV of clicks by partner or placement over a number of days up to today, or `all`. */
export async function attributionCsv(
  db: Db,
  by: AttributionDimension,
  period: Period,
  now = new Date(),
): Promise<string> {
  const range =
    period === 'all' ? { from: '0000-01-01', to: addDays(dayOf(now), 1) } : rangeForDays(period, now);
  const rows = await labelledAttribution(db, by, range, 100_000);
  return labelledCountsCsv(by, rows);
}
