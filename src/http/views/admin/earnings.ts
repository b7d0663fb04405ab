import type { StoreClicks } from '../../../services/admin/affiliate.js';
import type { BookFigures, EarningsModel, OneBookFigures } from '../../../services/admin/earnings.js';
import { html, type SafeHtml } from '../html.js';
import { barCell, stackedBar } from './charts.js';
import { type AdminViewer, renderAdminPage } from './layout.js';

export const EARNING_PERIODS = [7, 30, 90, 365] as const;
const BOOK_ROWS = 50;

const n = (value: number) => value.toLocaleString('en');
/** Click-through as a percentage, or a dash without visits. */
export const percent = (value: number | null) => (value === null ? '—' : `${(value * 100).toFixed(1)} %`);

function periodNav(days: number): SafeHtml {
  return html`<nav class="segmented" aria-label="Period">${EARNING_PERIODS.map((period) =>
    period === days
      ? html`<a href="/admin/earnings?days=${period}" aria-current="true">${period} days</a>`
      : html`<a href="/admin/earnings?days=${period}">${period} days</a>`,
  )}</nav>`;
}

const storeTotal = (s: StoreClicks) => s.operator + s.partner + s.none + s.unknown;

function storesSection(model: EarningsModel): SafeHtml {
  const max = Math.max(0, ...model.stores.map(storeTotal));
  const hasUnknown = model.stores.some((s) => s.unknown > 0);
  return html`<section class="panel" id="stores" aria-labelledby="stores-title">
  <header class="panel__head"><h2 id="stores-title">Clicks by store, with and without your tag</h2>
  <a class="panel__link" href="/admin/earnings/stores.csv?days=${model.days}">CSV</a></header>
  <p class="small muted"><span class="legend legend--operator"></span> your tag <span class="legend legend--partner"></span> a partner's tag <span class="legend legend--none"></span> no tag${hasUnknown ? html` <span class="legend legend--unknown"></span> not recorded (clicks before tags were recorded)` : ''}</p>
  ${
    model.stores.length === 0
      ? html`<p class="muted">No clicks in this period.</p>`
      : html`<div class="table-scroll"><table class="data data--earnings data--stack" data-role="stores"><thead><tr><th>Store</th><th>Storefront</th><th class="data__bar"></th><th class="num">Your tag</th><th class="num">Partner's</th><th class="num">No tag</th>${hasUnknown ? html`<th class="num">Not recorded</th>` : ''}</tr></thead>
<tbody>${model.stores.map(
          (
            s,
          ) => html`<tr data-store="${s.destinationSlug}${s.country ? `.${s.country}` : ''}"><td><a href="/admin/destinations/${s.destinationId}">${s.name}</a></td><td data-label="Storefront">${s.country ?? 'Default store'}</td>
  <td class="data__bar">${stackedBar(
    [
      { value: s.operator, kind: 'operator' },
      { value: s.partner, kind: 'partner' },
      { value: s.none, kind: 'none' },
      { value: s.unknown, kind: 'unknown' },
    ],
    max,
  )}</td>
  <td class="num" data-label="Your tag">${n(s.operator)}</td><td class="num" data-label="Partner's">${n(s.partner)}</td><td class="num" data-label="No tag">${n(s.none)}</td>${hasUnknown ? html`<td class="num" data-label="Not recorded">${n(s.unknown)}</td>` : ''}</tr>`,
        )}</tbody></table></div>`
  }
</section>`;
}

function bookRow(book: BookFigures, maxRate: number): SafeHtml {
  return html`<tr data-book="${book.bookId}"><td><a href="/admin/books/${book.bookId}">${book.title}</a></td>
  <td class="num" data-label="Reader visits">${n(book.visits)}</td><td class="num" data-label="Clicks">${n(book.clicks)}</td>
  <td class="data__bar col-wide">${barCell(book.clickThrough ?? 0, maxRate)}</td><td class="num" data-label="Click-through">${percent(book.clickThrough)}</td></tr>`;
}

function booksSection(model: EarningsModel): SafeHtml {
  const shown = model.books.slice(0, BOOK_ROWS);
  const maxRate = Math.max(0, ...shown.map((b) => b.clickThrough ?? 0));
  return html`<section class="panel" id="books" aria-labelledby="books-title">
  <header class="panel__head"><h2 id="books-title">Books: readers, clicks and click-through</h2>
  <a class="panel__link" href="/admin/earnings/books.csv?days=${model.days}">CSV</a></header>
  <p class="small muted">Visits of the book's page by readers (not bots or link previews); click-through is clicks per visit.${model.books.length > BOOK_ROWS ? html` The ${BOOK_ROWS} most visited of ${n(model.books.length)}; the CSV has them all.` : ''}</p>
  ${
    shown.length === 0
      ? html`<p class="muted">No visits or clicks in this period.</p>`
      : html`<div class="table-scroll"><table class="data data--earnings data--stack" data-role="books"><thead><tr><th>Book</th><th class="num">Reader visits</th><th class="num">Clicks</th><th class="data__bar col-wide"></th><th class="num">Click-through</th></tr></thead>
<tbody>${shown.map((book) => bookRow(book, maxRate))}</tbody></table></div>`
  }
</section>`;
}

export function renderEarnings(viewer: AdminViewer, model: EarningsModel): string {
  const body = html`<div class="page-head"><h1>What earns</h1>${periodNav(model.days)}</div>
${storesSection(model)}
${booksSection(model)}`;
  return renderAdminPage({ title: 'What earns', viewer, section: 'earnings', notice: null, body });
}

/** A book's own figures on its admin page. */
export function bookFiguresSection(figures: OneBookFigures): SafeHtml {
  const max = figures.byDestination[0]?.clicks ?? 0;
  return html`<section class="panel" id="figures" aria-labelledby="figures-title">
  <header class="panel__head"><h2 id="figures-title">Last ${figures.days} days</h2><a class="panel__link" href="/admin/earnings?days=${figures.days}#books">All books</a></header>
  <dl class="figures" data-role="book-figures">
    <div><dt>Reader visits</dt><dd data-figure="visits">${n(figures.visits)}</dd></div>
    <div><dt>Clicks</dt><dd data-figure="clicks">${n(figures.clicks)}</dd></div>
    <div><dt>Click-through</dt><dd data-figure="click-through">${percent(figures.clickThrough)}</dd></div>
  </dl>
  ${
    figures.byDestination.length > 0 &&
    html`<table class="data data--top"><caption>Clicks by destination</caption><tbody>${figures.byDestination.map(
      (row) =>
        html`<tr><td class="data__label">${row.name}</td><td class="data__bar">${barCell(row.clicks, max)}</td><td class="num">${n(row.clicks)}</td></tr>`,
    )}</tbody></table>`
  }
</section>`;
}
