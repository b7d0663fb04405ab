import type { Partner, PartnerDetail, PartnersOverview } from '../../../services/admin/partners.js';
import { html, type SafeHtml } from '../html.js';
import { checkbox, type FormErrors, type FormValues, field, formError, select } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

export interface PartnerFormState {
  values: FormValues;
  errors: FormErrors;
}

function keyOptions(overview: PartnersOverview) {
  return [
    { value: '', label: 'None' },
    ...overview.apiKeys.map((key) => ({ value: String(key.id), label: key.label })),
  ];
}

function partnerFields(overview: PartnersOverview, form: PartnerFormState): SafeHtml {
  return html`${field('Name', 'name', form.values, form.errors, { maxlength: 200, required: true })}
    ${field('Contact (email or note)', 'contact', form.values, form.errors, { maxlength: 500 })}
    ${select('API key (optional)', 'api_key_id', keyOptions(overview), form.values, form.errors)}
    ${checkbox('Active (its tags apply)', 'is_active', form.values, form.errors)}`;
}

function partnerRow(partner: Partner): SafeHtml {
  return html`<tr${partner.isActive ? '' : html` class="is-inactive"`}>
  <td class="mono"><a href="/admin/partners/${encodeURIComponent(partner.id)}">${partner.id}</a></td>
  <td>${partner.name}</td><td class="small">${partner.contact || '—'}</td>
  <td class="num">${partner.tags.length}</td>
  <td>${partner.isActive ? 'active' : html`<span class="tag">inactive</span>`}</td></tr>`;
}

export interface PartnersModel {
  overview: PartnersOverview;
  /** The add-a-partner form. */
  form: PartnerFormState;
  notice: string | null;
}

export function renderPartners(viewer: AdminViewer, { overview, form, notice }: PartnersModel): string {
  const body = html`<div class="page-head"><h1>Partners</h1></div>
<p class="muted">Partners put Booklink's links on their own sites with <code>partner=&lt;id&gt;</code> (book pages, short links, <code>/go/</code>, the links API and the embed). Their tag is used where they have one for a destination and storefront, yours elsewhere. Unknown or inactive ids are ignored.</p>
<section class="panel"><header class="panel__head"><h2>Partners</h2><a class="panel__link" href="/admin?days=30#top-partner">Clicks by partner</a></header>
${
  overview.partners.length === 0
    ? html`<p class="muted">No partners yet.</p>`
    : html`<div class="table-scroll"><table class="data"><thead><tr><th>Id</th><th>Name</th><th>Contact</th><th class="num">Tags</th><th>Status</th></tr></thead>
<tbody>${overview.partners.map(partnerRow)}</tbody></table></div>`
}
</section>
<section class="panel"><header class="panel__head"><h2>Add a partner</h2></header>
  ${formError(form.errors)}
  <form method="post" action="/admin/partners" class="admin-form admin-form--stack">
    ${csrfField(viewer)}
    ${field('Id (used in links: partner=…)', 'id', form.values, form.errors, { maxlength: 50, required: true, placeholder: 'acme-books' })}
    ${partnerFields(overview, form)}
    <button type="submit" class="button">Add partner</button>
  </form>
</section>`;
  return renderAdminPage({ title: 'Partners', viewer, section: 'partners', notice, body });
}

function tagsSection(viewer: AdminViewer, detail: PartnerDetail, form: PartnerFormState): SafeHtml {
  const { partner, overview } = detail;
  const base = `/admin/partners/${encodeURIComponent(partner.id)}`;
  const destinations = overview.destinations.map((d) => ({ value: d.slug, label: `${d.name} (${d.slug})` }));
  return html`<section class="panel"><header class="panel__head"><h2>Affiliate tags</h2></header>
${
  partner.tags.length === 0
    ? html`<p class="muted">No tags: your tags apply to this partner's links everywhere.</p>`
    : html`<div class="table-scroll"><table class="data"><thead><tr><th>Destination</th><th>Storefront</th><th>Tag</th><th></th></tr></thead><tbody>
${partner.tags.map(
  (
    tag,
  ) => html`<tr><td class="mono">${tag.destinationSlug}</td><td>${tag.country ?? 'default'}</td><td class="mono">${tag.tag}</td>
<td><form method="post" action="${base}/tags/remove" class="inline-form">${csrfField(viewer)}
<input type="hidden" name="destination_slug" value="${tag.destinationSlug}"><input type="hidden" name="country" value="${tag.country ?? ''}">
<button type="submit" class="button button--small button--quiet">Remove</button></form></td></tr>`,
)}</tbody></table></div>`
}
  ${formError(form.errors)}
  <form method="post" action="${base}/tags" class="admin-form">
    ${csrfField(viewer)}
    ${select('Destination', 'destination_slug', destinations, form.values, form.errors)}
    ${field('Storefront country (empty: the default store)', 'country', form.values, form.errors, { maxlength: 2, placeholder: 'GB' })}
    ${field('Tag', 'tag', form.values, form.errors, { maxlength: 100, required: true })}
    <button type="submit" class="button">Set tag</button>
  </form>
</section>`;
}

function clicksSection(detail: PartnerDetail): SafeHtml {
  const base = `/admin/partners/${encodeURIComponent(detail.partner.id)}`;
  return html`<section class="panel"><header class="panel__head"><h2>Clicks, last ${detail.days} days</h2>
  <nav class="segmented" aria-label="Period">${[7, 30, 90, 365].map((days) =>
    days === detail.days
      ? html`<a href="${base}?days=${days}" aria-current="true">${days} days</a>`
      : html`<a href="${base}?days=${days}">${days} days</a>`,
  )}</nav>
  <a class="panel__link" href="${base}/clicks.csv?days=${detail.days}">CSV</a></header>
  <p class="stat"><strong data-role="partner-total">${detail.total.toLocaleString('en')}</strong> clicks</p>
  <div class="grid-2">
  <table class="data"><caption>By destination</caption><tbody>${detail.byDestination.map(
    (row) => html`<tr><td>${row.label}</td><td class="num">${row.clicks}</td></tr>`,
  )}</tbody></table>
  <table class="data"><caption>By placement (src)</caption><tbody>${detail.bySrc.map(
    (row) => html`<tr><td>${row.key || '(none)'}</td><td class="num">${row.clicks}</td></tr>`,
  )}</tbody></table></div>
</section>`;
}

export interface PartnerModel {
  detail: PartnerDetail;
  /** A failed details form (else it shows the partner as saved). */
  edit?: PartnerFormState;
  /** A failed tag form (else it is empty). */
  tag?: PartnerFormState;
  notice: string | null;
}

const savedValues = (partner: Partner): FormValues => ({
  name: partner.name,
  contact: partner.contact,
  is_active: partner.isActive,
  api_key_id: partner.apiKeyId === null ? '' : String(partner.apiKeyId),
});

export function renderPartner(viewer: AdminViewer, model: PartnerModel): string {
  const { detail, notice } = model;
  const { partner } = detail;
  const forms = {
    edit: model.edit ?? { values: savedValues(partner), errors: {} },
    tag: model.tag ?? { values: {}, errors: {} },
  };
  const body = html`<div class="page-head"><h1>Partner ${partner.name}</h1><p class="muted mono">partner=${partner.id}</p></div>
${tagsSection(viewer, detail, forms.tag)}
${clicksSection(detail)}
<section class="panel"><header class="panel__head"><h2>Details</h2></header>
  ${formError(forms.edit.errors)}
  <form method="post" action="/admin/partners/${encodeURIComponent(partner.id)}" class="admin-form admin-form--stack">
    ${csrfField(viewer)}
    ${partnerFields(detail.overview, forms.edit)}
    <button type="submit" class="button">Save</button>
  </form>
</section>`;
  return renderAdminPage({ title: `Partner ${partner.name}`, viewer, section: 'partners', notice, body });
}
