import { html } from '../html.js';
import { type Preview, previewBox } from './destination-form.js';
import { type FormErrors, type FormValues, field, formError } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

export interface LocalShopPageModel {
  values: FormValues;
  errors: FormErrors;
  preview: Preview;
}

/**
 * "Add your local bookshop": the three things an operator knows about a shop (its name, the address
 * of a book there, where it sells). The preview is the server's (the "Preview" button) and, with
 * script, live as they type (web/admin.js reads the same `data-role`s as the destination form).
 */
export function renderLocalShopPage(viewer: AdminViewer, model: LocalShopPageModel): string {
  const { values, errors, preview } = model;
  const body = html`<div class="page-head"><div><p class="crumbs"><a href="/admin/destinations">Destinations</a></p><h1>New local bookshop</h1></div></div>
<section class="panel">${formError(errors)}
<form method="post" action="/admin/destinations/local-shop" class="admin-form" data-role="destination-form">
  ${csrfField(viewer)}
  <input type="hidden" name="group" value="new">
  ${field('Shop name', 'display_name', values, errors, { required: true, maxlength: 200, placeholder: 'The Corner Bookshop' })}
  <div class="field field--wide${errors.url_template ? ' field--invalid' : ''}">
    <label for="f-url_template">Link to a book</label>
    <textarea id="f-url_template" name="url_template" rows="2" class="mono" data-role="template" placeholder="https://cornerbookshop.example/book/{isbn13}">${String(values.url_template ?? '')}</textarea>
    <p class="field__hint">The shop's address of a book, with {isbn13} (or {isbn10}, {title_author}) where the book goes; a fallback after <code>||</code>.</p>
    ${errors.url_template && html`<p class="field__error">${errors.url_template}</p>`}
  </div>
  ${previewBox(preview)}
  ${field('Countries', 'countries', values, errors, { maxlength: 400, placeholder: 'GB', hint: 'Where it sells, e.g. GB or DE, AT. Readers elsewhere never see it. Empty: everywhere.' })}
  <div class="form-actions">
    <button type="submit" class="button button--quiet" name="action" value="preview">Preview</button>
    <button type="submit" class="button" name="action" value="create">Add bookshop</button>
  </div>
</form></section>`;
  return renderAdminPage({
    title: 'New local bookshop',
    viewer,
    section: 'destinations',
    notice: null,
    body,
  });
}
