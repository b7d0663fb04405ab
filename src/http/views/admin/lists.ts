import type { ListFilter, ListRow } from '../../../services/admin/lists-read.js';
import type { List } from '../../../services/lists.js';
import { html, type SafeHtml } from '../html.js';
import { listTitle } from '../list-page.js';
import { checkbox, type FormErrors, type FormValues, field, formError, textarea } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

export const LISTS_PAGE_SIZE = 50;

const day = (iso: string) => iso.slice(0, 10);

/** Feature or unfeature in one click; `back` brings the operator to the page they clicked on. */
export function featureButton(viewer: AdminViewer, list: List, back: 'index' | 'list'): SafeHtml {
  return html`<form method="post" action="/admin/lists/${list.id}/feature" class="inline-form">
  ${csrfField(viewer)}<input type="hidden" name="featured" value="${list.featured ? 'false' : 'true'}">
  <input type="hidden" name="back" value="${back}">
  <button type="submit" class="button button--small button--quiet">${list.featured ? 'Unfeature' : 'Feature'}</button>
</form>`;
}

const KINDS = [
  { value: '', label: 'All kinds' },
  { value: 'admin', label: 'Made here' },
  { value: 'ingest', label: 'Ingested' },
  { value: 'reader', label: "Readers'" },
];

function filterForm(filter: ListFilter): SafeHtml {
  return html`<form class="admin-search" method="get" action="/admin/lists" role="search">
  <input type="search" name="q" value="${filter.q}" placeholder="Words of the list's name" aria-label="Find a list" maxlength="200">
  <select name="kind" aria-label="Kind">${KINDS.map((k) =>
    k.value === (filter.kind ?? '')
      ? html`<option value="${k.value}" selected>${k.label}</option>`
      : html`<option value="${k.value}">${k.label}</option>`,
  )}</select>
  <button type="submit" class="button">Find</button>
</form>`;
}

function pager(filter: ListFilter, shown: number): SafeHtml {
  const page = Math.floor(filter.offset / LISTS_PAGE_SIZE) + 1;
  const link = (to: number) =>
    `/admin/lists?${new URLSearchParams({ q: filter.q, kind: filter.kind ?? '', page: String(to) })}`;
  return html`<nav class="pager" aria-label="Pages">
  ${page > 1 && html`<a href="${link(page - 1)}">← Previous</a>`}
  ${shown === LISTS_PAGE_SIZE && html`<a href="${link(page + 1)}">Next →</a>`}
</nav>`;
}

function row(viewer: AdminViewer, { list, itemCount }: ListRow): SafeHtml {
  return html`<tr>
  <td><a href="/admin/lists/${list.id}">${listTitle(list)}</a> <span class="muted small">#${list.id}</span></td>
  <td>${list.kind}</td>
  <td class="mono">${list.source ?? ''}</td>
  <td class="mono">${list.listDate ?? ''}</td>
  <td>${list.featured && html`<span class="tag">featured</span> `}${featureButton(viewer, list, 'index')}</td>
  <td class="num">${itemCount}</td>
  <td class="small">${day(list.createdAt)}</td>
  <td class="small">${day(list.updatedAt)}</td>
</tr>`;
}

export interface ListIndexModel {
  rows: readonly ListRow[];
  filter: ListFilter;
  notice: string | null;
  /** The "New list" form refilled after an error. */
  failed?: { values: FormValues; errors: FormErrors };
}

/** A list and its books at once: one slug, ISBN or store address a line, ranked in that order. */
function newListForm(viewer: AdminViewer, failed: ListIndexModel['failed']): SafeHtml {
  const values = failed?.values ?? {};
  const errors = failed?.errors ?? {};
  return html`<details class="panel add" id="new-list"${failed ? html` open` : ''}><summary class="button">New list</summary>
  ${formError(errors)}
  <form method="post" action="/admin/lists" class="admin-form admin-form--stack">
    ${csrfField(viewer)}
    ${field('Name', 'name', values, errors, { maxlength: 500, required: true })}
    ${textarea('Description', 'description', values, errors, 2)}
    ${field('Date', 'list_date', values, errors, { placeholder: 'YYYY-MM-DD', maxlength: 20 })}
    ${textarea("Books, one a line (slug, ISBN or store address), in the list's order", 'books', values, errors, 6)}
    ${checkbox('Feature the list on the home page', 'is_featured', values, errors)}
    <button type="submit" class="button">Create the list</button>
  </form>
</details>`;
}

export function renderListIndex(
  viewer: AdminViewer,
  { rows, filter, notice, failed }: ListIndexModel,
): string {
  const body = html`<div class="page-head"><h1>Lists</h1></div>
<p class="muted">Readers' lists, ingested lists and the ones made here. Featured lists appear on the home page.</p>
${newListForm(viewer, failed)}
${filterForm(filter)}
${
  rows.length === 0
    ? html`<p class="muted">No list matches.</p>`
    : html`<div class="table-scroll"><table class="data data--lists">
  <thead><tr><th>Name</th><th>Kind</th><th>Source</th><th>Date</th><th>Featured</th><th class="num">Books</th><th>Created</th><th>Updated</th></tr></thead>
  <tbody>${rows.map((r) => row(viewer, r))}</tbody>
</table></div>`
}
${pager(filter, rows.length)}`;
  return renderAdminPage({ title: 'Lists', viewer, section: 'lists', notice, body });
}
