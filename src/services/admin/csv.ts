import type { LabelledCount } from './periods.js';

/**
 * One CSV cell. A leading = + - @ would run as a formula in a spreadsheet; a quote prefix keeps it
 * text. Commas, quotes and line breaks are quoted.
 */
function csvCell(value: string | number): string {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The CSV of a header and its rows, each line ended by a newline (the last one too). */
export function csvText(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
): string {
  return [header, ...rows].map((cells) => `${cells.map(csvCell).join(',')}\n`).join('');
}

/** The CSV of counts with labels, broken down by `by` (a dimension, a partner, a placement). */
export function labelledCountsCsv(by: string, rows: readonly LabelledCount[]): string {
  return csvText(
    [by, 'label', 'clicks'],
    rows.map((row) => [row.key, row.label, row.clicks]),
  );
}
