import type { List, ListItem } from '../../../services/lists.js';
import { html, type SafeHtml } from '../html.js';
import { listTitle } from '../list-page.js';
import {
  actionButton,
  checkbox,
  type FormErrors,
  type FormValues,
  field,
  formError,
  textarea,
} from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';
import { featureButton } from './lists.js';

export interface ListAdminModel {
  list: List;
  items: ListItem[];
  /** Public address of the list (its words follow the name). */
  path: string;
  failed?: { form: string; values: FormValues; errors: FormErrors };
  notice?: string | null;
}

const stateOf = (model: ListAdminModel, form: string, defaults: FormValues) =>
  model.failed?.form === form
    ? { values: model.failed.values, errors: model.failed.errors }
    : { values: defaults, errors: {} as FormErrors };

function detailsForm(viewer: AdminViewer, model: ListAdminModel): SafeHtml {
  const { list } = model;
  const { values, errors } = stateOf(model, 'edit', {
    name: list.name ?? '',
    description: list.description ?? '',
    list_date: list.listDate ?? '',
    is_featured: list.featured,
  });
  return html`<section class="panel" id="details"><header class="panel__head"><h2>Details</h2></header>
  ${formError(errors)}
  <form method="post" action="/admin/lists/${list.id}/edit" class="admin-form">
    ${csrfField(viewer)}
    ${field('Name', 'name', values, errors, { maxlength: 500 })}
    ${field('Date', 'list_date', values, errors, { placeholder: 'YYYY-MM-DD', maxlength: 20 })}
    ${textarea('Description', 'description', values, errors, 3)}
    ${checkbox('Featured on the home page', 'is_featured', values, errors)}
    <div class="form-actions"><button type="submit" class="button">Save details</button></div>
  </form>
</section>`;
}

/** Rank inputs belong to the order form through `form=`, so each row can also hold its own remove form. */
function itemRow(viewer: AdminViewer, model: ListAdminModel, item: ListItem): SafeHtml {
  const name = `rank_${item.book.id}`;
  const { values, errors } = stateOf(model, 'order', { [name]: item.rank ?? '' });
  return html`<tr${errors[name] ? html` class="is-invalid"` : ''}>
  <td><input class="narrow" type="number" min="1" name="${name}" value="${values[name] ?? ''}" form="list-order" aria-label="Rank of ${item.book.title}">
  ${errors[name] && html`<p class="field__error">${errors[name]}</p>`}</td>
  <td><a href="/admin/books/${item.book.id}">${item.book.title}</a><br><span class="muted small">${item.book.authors.join(', ')}</span></td>
  <td class="mono small">${item.book.slug}</td>
  <td>${actionButton(viewer, `/admin/lists/${model.list.id}/books/remove`, 'book_id', item.book.id, 'Remove')}</td>
</tr>`;
}

function booksPanel(viewer: AdminViewer, model: ListAdminModel): SafeHtml {
  const { list, items } = model;
  const { values, errors } = stateOf(model, 'add', {});
  return html`<section class="panel" id="books"><header class="panel__head"><h2>Books (${items.length})</h2></header>
  ${
    items.length === 0
      ? html`<p class="muted">No books yet.</p>`
      : html`<form method="post" action="/admin/lists/${list.id}/order" id="list-order">${csrfField(viewer)}
    <input type="hidden" name="books" value="${items.map((item) => item.book.id).join(',')}"></form>
  <table class="data data--list-items"><thead><tr><th>Rank</th><th>Book</th><th>Slug</th><th></th></tr></thead>
  <tbody>${items.map((item) => itemRow(viewer, model, item))}</tbody></table>
  <div class="form-actions"><button type="submit" class="button" form="list-order">Save order</button>
  <span class="muted small">Ranked books come first, by rank; an empty rank keeps the order of adding.</span></div>`
  }
  <h3>Add a book</h3>
  ${formError(errors)}
  <form method="post" action="/admin/lists/${list.id}/books" class="admin-form">
    ${csrfField(viewer)}
    ${field('Book (slug, ISBN, /book/ or retailer URL)', 'book_ref', values, errors, { required: true, maxlength: 2000 })}
    ${field('Rank', 'rank', values, errors, { type: 'number' })}
    <div class="form-actions"><button type="submit" class="button">Add book</button></div>
  </form>
</section>`;
}

export function renderListAdmin(viewer: AdminViewer, model: ListAdminModel): string {
  const { list } = model;
  const facts = [list.kind, list.source, list.listDate, `created ${list.createdAt.slice(0, 10)}`];
  const body = html`<div class="page-head">
  <div><p class="crumbs"><a href="/admin/lists">Lists</a></p>
  <h1>${listTitle(list)}${list.featured && html` <span class="tag">featured</span>`}</h1>
  <p class="muted">${facts.filter(Boolean).join(' · ')}</p></div>
  <div class="form-actions">${featureButton(viewer, list, 'list')}
  <a class="button button--quiet" href="${model.path}" target="_blank" rel="noopener">Public page ↗</a>
  <a class="button button--quiet button--danger" href="/admin/lists/${list.id}/delete">Delete…</a></div>
</div>
${detailsForm(viewer, model)}
${booksPanel(viewer, model)}`;
  const title = listTitle(list);
  return renderAdminPage({ title, viewer, section: 'lists', notice: model.notice ?? null, body });
}

/** Deleting is a second, explicit step: this page says what goes and carries the confirming field. */
export interface ListDeleteModel {
  list: List;
  /** How many entries go with it. */
  itemCount: number;
}

export function renderListDelete(viewer: AdminViewer, { list, itemCount }: ListDeleteModel): string {
  const body = html`<div class="page-head"><div><p class="crumbs"><a href="/admin/lists/${list.id}">${listTitle(list)}</a></p>
<h1>Delete this list?</h1></div></div>
<section class="panel">
  <p>"${listTitle(list)}" and its ${itemCount} ${itemCount === 1 ? 'entry' : 'entries'} will be removed; its public page will answer 404. The books themselves stay.</p>
  <form method="post" action="/admin/lists/${list.id}/delete" class="form-actions">
    ${csrfField(viewer)}<input type="hidden" name="confirm" value="yes">
    <button type="submit" class="button button--danger">Delete the list</button>
    <a class="button button--quiet" href="/admin/lists/${list.id}">Cancel</a>
  </form>
</section>`;
  return renderAdminPage({ title: 'Delete list', viewer, section: 'lists', body });
}
