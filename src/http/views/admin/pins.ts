import type { PinRecord } from '../../../services/admin/pins.js';
import { html } from '../html.js';
import { actionButton, type FormErrors, type FormValues, field, formError } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

export interface PinsModel {
  pins: readonly PinRecord[];
  /** The new-pin form: what was typed (or the search to pin, from a link) and its errors. */
  values: FormValues;
  errors: FormErrors;
  notice: string | null;
}

export function renderPins(viewer: AdminViewer, model: PinsModel): string {
  const { pins, values, errors, notice } = model;
  const body = html`<div class="page-head"><h1>Search pins</h1></div>
<p class="muted">A pinned book leads the results of its search, whatever the ranking says.</p>
<section class="panel" id="new-pin"><header class="panel__head"><h2>Pin a book to a search</h2></header>
  ${formError(errors)}
  <form method="post" action="/admin/pins" class="admin-form">
    ${csrfField(viewer)}
    ${field('Search words', 'query', values, errors, { maxlength: 500, required: true })}
    ${field('Book (slug, ISBN or /book/ URL)', 'book_ref', values, errors, { maxlength: 2000, required: true })}
    ${field('Notes', 'notes', values, errors, { maxlength: 500 })}
    <div class="form-actions"><button type="submit" class="button">Pin</button></div>
  </form>
</section>
<section class="panel"><header class="panel__head"><h2>Pins</h2></header>
${
  pins.length === 0
    ? html`<p class="muted">No pins yet.</p>`
    : html`<table class="data"><thead><tr><th>Search</th><th>Book</th><th>Notes</th><th class="num">Searches since</th><th></th></tr></thead><tbody>
  ${pins.map(
    (
      pin,
    ) => html`<tr><td class="mono">${pin.queryKey}</td><td><a href="/admin/books/${pin.bookId}">${pin.bookTitle}</a></td>
    <td>${pin.notes}</td><td class="num">${pin.searches}</td>
    <td>${actionButton(viewer, '/admin/pins/delete', 'pin_id', pin.id, 'Delete')}</td></tr>`,
  )}</tbody></table>`
}
</section>`;
  return renderAdminPage({ title: 'Search pins', viewer, section: 'pins', notice, body });
}
