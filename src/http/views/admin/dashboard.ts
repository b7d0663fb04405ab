import type { SearchStats } from '../../../services/admin/analytics.js';
import { html, type SafeHtml } from '../html.js';
import { barCell, dailyChart, type Point } from './charts.js';
import { type AdminViewer, renderAdminPage } from './layout.js';

export interface TopRow {
  label: string;
  href: string | null;
  clicks: number;
}

export interface DashboardModel {
  /** Days up to today, or `all` from the first click. */
  period: number | 'all';
  /** While existing clicks are still being rolled up, the first day whose figures are complete. */
  pendingBefore: string | null;
  total: number;
  series: Point[];
  tops: Array<{ key: string; title: string; rows: TopRow[] }>;
  /** Clicks by partner and by placement (`src=`). */
  attribution?: Array<{ key: string; title: string; rows: TopRow[] }>;
  search: SearchStats;
  /** Book-page and short-link visits by audience (reader, preview, bot) and placement (`src=`). */
  visits?: Array<{ audience: string; src: string; visits: number }>;
}

export const PERIODS = [7, 30, 90, 365, 'all'] as const;
const periodName = (period: number | 'all') => (period === 'all' ? 'All time' : `${period} days`);
const periodPhrase = (period: number | 'all') =>
  period === 'all' ? 'since the first click' : `last ${period} days`;

function topTable(key: string, title: string, rows: TopRow[], days: number | 'all'): SafeHtml {
  const max = rows[0]?.clicks ?? 0;
  return html`<section class="panel" aria-labelledby="top-${key}">
  <header class="panel__head"><h2 id="top-${key}">${title}</h2><a class="panel__link" href="/admin/analytics.csv?by=${key}&amp;days=${days}">CSV</a></header>
  ${
    rows.length === 0
      ? html`<p class="muted">No clicks in this period.</p>`
      : html`<table class="data data--top"><tbody>${rows.map(
          (
            row,
          ) => html`<tr><td class="data__label">${row.href ? html`<a href="${row.href}">${row.label}</a>` : row.label}</td>
          <td class="data__bar">${barCell(row.clicks, max)}</td><td class="num">${row.clicks.toLocaleString('en')}</td></tr>`,
        )}</tbody></table>`
  }
</section>`;
}

function queryList(title: string, rows: Array<{ query: string; count: number }>, fix: string): SafeHtml {
  return html`<section class="panel">
  <header class="panel__head"><h2>${title}</h2></header>
  ${
    rows.length === 0
      ? html`<p class="muted">Nothing to fix here.</p>`
      : html`<table class="data"><tbody>${rows.map(
          (row) => html`<tr><td class="data__label">${row.query}</td><td class="num">${row.count}</td>
          <td class="data__actions"><a href="/admin/pins?query=${encodeURIComponent(row.query)}">${fix}</a>
          · <a href="/admin/books?q=${encodeURIComponent(row.query)}">Find book</a></td></tr>`,
        )}</tbody></table>`
  }
</section>`;
}

const AUDIENCES: ReadonlyArray<[key: string, label: string]> = [
  ['reader', 'Readers'],
  ['preview', 'Link previews (chat and social apps)'],
  ['bot', 'Other bots (search, AI, monitors)'],
];

/** Page visits apart from clicks: readers, link unfurlers and bots, so bots never inflate the reader figures. */
function visitsPanel(rows: ReadonlyArray<{ audience: string; src: string; visits: number }>): SafeHtml {
  const total = (audience: string) =>
    rows.filter((row) => row.audience === audience).reduce((sum, row) => sum + row.visits, 0);
  const placements = rows.filter((row) => row.audience === 'reader' && row.src);
  return html`<section class="panel" aria-labelledby="visits">
  <header class="panel__head"><h2 id="visits">Book page visits</h2></header>
  <table class="data" data-role="visits"><tbody>${AUDIENCES.map(
    ([key, label]) =>
      html`<tr data-audience="${key}"><td class="data__label">${label}</td><td class="num">${total(key).toLocaleString('en')}</td></tr>`,
  )}</tbody></table>
  ${
    placements.length > 0
      ? html`<table class="data"><caption>Readers' visits by placement (src=)</caption><tbody>${placements.map(
          (row) =>
            html`<tr><td class="data__label">${row.src}</td><td class="num">${row.visits.toLocaleString('en')}</td></tr>`,
        )}</tbody></table>`
      : ''
  }
</section>`;
}

export function renderDashboard(viewer: AdminViewer, model: DashboardModel): string {
  const body = html`<div class="page-head">
  <h1>Analytics</h1>
  <nav class="segmented" aria-label="Period">${PERIODS.map((days) =>
    days === model.period
      ? html`<a href="/admin?days=${days}" aria-current="true">${periodName(days)}</a>`
      : html`<a href="/admin?days=${days}">${periodName(days)}</a>`,
  )}</nav>
</div>
<section class="panel panel--chart">
  <header class="panel__head"><h2>Clicks over time</h2>
    <p class="stat"><strong>${model.total.toLocaleString('en')}</strong> clicks · <strong>${model.search.searches.toLocaleString('en')}</strong> searches</p>
    <a class="panel__link" href="/admin/analytics.csv?by=day&amp;days=${model.period}">CSV</a></header>
  ${dailyChart(model.series, `Clicks per day, ${periodPhrase(model.period)}`)}
</section>
<div class="grid-2">
  ${model.tops.map((top) => topTable(top.key, top.title, top.rows, model.period))}
</div>
<div class="grid-2">
  ${(model.attribution ?? []).map((top) => topTable(top.key, top.title, top.rows, model.period))}
</div>
${visitsPanel(model.visits ?? [])}
<h2 class="section-title">Searches to fix</h2>
<div class="grid-3">
  ${queryList('Searches with no results', model.search.zeroResults, 'Pin a book')}
  ${queryList('"Can\u2019t find my book"', model.search.misses, 'Pin a book')}
  ${queryList('Results voted down', model.search.lowVoted, 'Pin a better book')}
</div>`;
  // Shown only while a fresh roll-up back-fills existing clicks (minutes, once per deployment).
  const notice = model.pendingBefore
    ? `Existing clicks are still being counted in the background: figures before ${model.pendingBefore} are incomplete. Reload in a minute.`
    : null;
  return renderAdminPage({ title: 'Analytics', viewer, section: 'dashboard', notice, body });
}
