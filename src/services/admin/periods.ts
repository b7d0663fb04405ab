import { addDays, dayOf, type Range } from '../../store/analytics.js';

/** One row of an analytics table: what was clicked, how it is shown and where it links. */
export interface LabelledCount {
  key: string;
  label: string;
  href: string | null;
  clicks: number;
}

/** A number of days up to today, or `all` (from the first click). */
export type Period = number | 'all';

export function rangeForDays(days: number, now = new Date()): Range {
  const today = dayOf(now);
  return { from: addDays(today, 1 - days), to: addDays(today, 1) };
}
