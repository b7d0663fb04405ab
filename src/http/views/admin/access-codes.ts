import type { AccessCodesOverview } from '../../../services/admin/access-codes.js';
import { html } from '../html.js';
import { checkbox, type FormErrors, type FormValues, field, formError } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

export interface AccessCodesModel {
  overview: AccessCodesOverview;
  /** The new-code form: what was typed and its errors. */
  values: FormValues;
  errors: FormErrors;
  notice: string | null;
}

function codeSection(
  viewer: AdminViewer,
  overview: AccessCodesOverview,
  entry: AccessCodesOverview['codes'][number],
) {
  const { code, destinations: mine } = entry;
  return html`<section class="admin-card" id="code-${code.id}">
  <h2>${code.displayName || code.slug} <code>/access/${code.slug}</code>${code.isActive ? '' : ' (inactive)'}</h2>
  <form method="post" action="/admin/access-codes/${code.id}">${csrfField(viewer)}
    ${field('Display name', 'display_name', { display_name: code.displayName }, {})}
    ${field('Description', 'description', { description: code.description }, {})}
    ${field('Cookie lifetime (hours)', 'cookie_ttl_hours', { cookie_ttl_hours: code.cookieTtlHours }, {}, { type: 'number' })}
    <input type="hidden" name="is_active" value="false">${checkbox('Active', 'is_active', { is_active: code.isActive }, {})}
    <button type="submit" class="button">Save</button>
  </form>
  <ul>${mine.map((d) => html`<li>${d.displayName} <form method="post" action="/admin/access-codes/${code.id}/destinations/remove" class="inline">${csrfField(viewer)}<input type="hidden" name="destination_id" value="${d.id}"><button type="submit">Remove</button></form></li>`)}</ul>
  <form method="post" action="/admin/access-codes/${code.id}/destinations">${csrfField(viewer)}
    <select name="destination_id" aria-label="Destination">${overview.destinations.filter((d) => !mine.some((m) => m.id === d.id)).map((d) => html`<option value="${d.id}">${d.displayName}${d.isPublic ? '' : ' (private)'}</option>`)}</select>
    <button type="submit" class="button">Add destination</button>
  </form>
</section>`;
}

/** Access codes: the new-code form, then each code with its settings and the destinations it unlocks. */
export function renderAccessCodes(viewer: AdminViewer, model: AccessCodesModel): string {
  const { values, errors } = model;
  const body = html`<h1>Access codes</h1>
<form method="post" action="/admin/access-codes" class="admin-card">${csrfField(viewer)}
  <h2>New access code</h2>${formError(errors)}
  ${field('Display name', 'display_name', values, errors, { required: true })}
  ${field('Slug', 'slug', values, errors, { required: true, hint: 'Readers open /access/{slug}' })}
  ${field('Description', 'description', values, errors)}
  ${field('Cookie lifetime (hours)', 'cookie_ttl_hours', { cookie_ttl_hours: 24, ...values }, errors, { type: 'number' })}
  <input type="hidden" name="is_active" value="false">${checkbox('Active', 'is_active', { is_active: true, ...values }, errors)}
  <button type="submit" class="button">Create</button>
</form>
${model.overview.codes.map((entry) => codeSection(viewer, model.overview, entry))}`;
  return renderAdminPage({
    title: 'Access codes',
    viewer,
    section: 'access-codes',
    notice: model.notice,
    body,
  });
}
