import { html, type SafeHtml } from '../html.js';

export interface Point {
  day: string;
  clicks: number;
}

const W = 720;
const H = 200;
const PAD = { top: 12, right: 8, bottom: 24, left: 40 };

/** A round axis maximum: 1, 2 or 5 times a power of ten, so the gridlines read easily. */
function niceMax(value: number): number {
  if (value <= 5) return 5;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

/**
 * Clicks per day as server-rendered SVG columns: no script, no library, readable by screen readers
 * through its title and the table that follows it.
 */
export function dailyChart(points: readonly Point[], label: string): SafeHtml {
  const max = niceMax(Math.max(0, ...points.map((point) => point.clicks)));
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = innerW / Math.max(1, points.length);
  const barW = Math.max(1, step * 0.72);
  const y = (value: number) => PAD.top + innerH - (value / max) * innerH;
  const grid = [0, 0.5, 1].map((fraction) => {
    const value = Math.round(max * fraction);
    return html`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(value)}" y2="${y(value)}" class="chart__grid"/>
<text x="${PAD.left - 6}" y="${y(value) + 4}" class="chart__axis" text-anchor="end">${value}</text>`;
  });
  const bars = points.map((point, i) => {
    const top = y(point.clicks);
    return html`<rect x="${(PAD.left + i * step + (step - barW) / 2).toFixed(1)}" y="${top.toFixed(1)}" width="${barW.toFixed(1)}" height="${(PAD.top + innerH - top).toFixed(1)}" class="chart__bar"><title>${point.day}: ${point.clicks}</title></rect>`;
  });
  const first = points[0]?.day ?? '';
  const last = points[points.length - 1]?.day ?? '';
  return html`<svg class="chart" viewBox="0 0 ${W} ${H}" role="img" aria-label="${label}">
<title>${label}</title>
${grid}
${bars}
<text x="${PAD.left}" y="${H - 6}" class="chart__axis">${first}</text>
<text x="${W - PAD.right}" y="${H - 6}" class="chart__axis" text-anchor="end">${last}</text>
</svg>`;
}

/** A proportional bar for one row of a top-N table. */
export function barCell(value: number, max: number): SafeHtml {
  const width = max > 0 ? Math.max(1, Math.round((value / max) * 100)) : 0;
  return html`<svg class="rowbar" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true"><rect width="${width}" height="8" rx="2"/></svg>`;
}

/** One row's parts side by side in one bar (with and without a tag), scaled to the table's `max`. */
export function stackedBar(parts: ReadonlyArray<{ value: number; kind: string }>, max: number): SafeHtml {
  let x = 0;
  const rects = parts
    .filter((part) => part.value > 0 && max > 0)
    .map((part) => {
      const width = (part.value / max) * 100;
      const rect = html`<rect x="${x.toFixed(2)}" width="${width.toFixed(2)}" height="8" class="stack--${part.kind}"/>`;
      x += width;
      return rect;
    });
  return html`<svg class="rowbar rowbar--stacked" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">${rects}</svg>`;
}
