import type { AffiliateOverview, TagSlot, UntaggedStore } from '../../../services/admin/affiliate.js';
import { html, type SafeHtml } from '../html.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

export interface AffiliateModel {
  overview: AffiliateOverview;
  /** A failed tag form: which store it was for and its errors. */
  failed?: { destinationId: number; country: string; tag: string; errors: Record<string, string> };
  notice: string | null;
}

const SOURCE_TEXT = {
  environment: 'from the environment',
  admin: 'set here',
  destination: 'from the destination form',
} as const;

const REASON_TEXT: Readonly<Record<UntaggedStore['reason'], string>> = {
  'no-parameter': 'This store has no affiliate parameter: set one on the destination.',
  'no-tag': 'No tag is set for this store.',
  'tag-set-since': 'A tag is set now: these clicks came before it, or went to a link on another host.',
};

const storefrontName = (country: string | null) => country ?? 'Default store';

function untaggedSection(rows: readonly UntaggedStore[], days: number): SafeHtml {
  return html`<section class="panel" id="untagged" aria-labelledby="untagged-title">
  <header class="panel__head"><h2 id="untagged-title">Clicks without your tag, last ${days} days</h2>
  <a class="panel__link" href="/admin/earnings?days=${days}">What earns</a></header>
  ${
    rows.length === 0
      ? html`<p class="muted">Every click of the last ${days} days carried a tag.</p>`
      : html`<div class="table-scroll"><table class="data data--stack" data-role="untagged"><thead><tr><th>Destination</th><th>Storefront</th><th class="num">Clicks without a tag</th><th>Why</th></tr></thead>
<tbody>${rows.map(
          (row) => html`<tr data-untagged="${row.destinationSlug}${row.country ? `.${row.country}` : ''}">
  <td><a href="/admin/destinations/${row.destinationId}">${row.name}</a></td><td data-label="Storefront">${storefrontName(row.country)}</td>
  <td class="num" data-label="Clicks without a tag">${row.none.toLocaleString('en')}</td><td class="small">${REASON_TEXT[row.reason]}</td></tr>`,
        )}</tbody></table></div>`
  }
</section>`;
}

function status(slot: TagSlot): SafeHtml {
  if (!slot.canCarry)
    return html`<span class="tag tag--warn">no affiliate parameter: clicks go out untagged</span>`;
  if (!slot.effective) return html`<span class="tag tag--warn">no tag: clicks go out untagged</span>`;
  return html`<span class="tag">${SOURCE_TEXT[slot.effective.source]}</span>`;
}

function slotRow(viewer: AdminViewer, slot: TagSlot, failed: AffiliateModel['failed']): SafeHtml {
  const d = slot.destination;
  const key = `${d.slug}${slot.country ? `.${slot.country}` : ''}`;
  const mine = failed && failed.destinationId === d.id && failed.country === (slot.country ?? '');
  const fromEnvironment = slot.effective?.source === 'environment';
  const value = mine ? failed.tag : (slot.stored ?? '');
  const form = fromEnvironment
    ? html`<span class="mono" data-role="effective-tag">${slot.effective?.tag}</span>
      <span class="small muted">AFFILIATE_TAGS sets it; change it there${slot.stored ? html` (set here: <span class="mono">${slot.stored}</span>)` : ''}.</span>`
    : html`<form method="post" action="/admin/affiliate/tags" class="inline-form">${csrfField(viewer)}
      <input type="hidden" name="destination_id" value="${d.id}"><input type="hidden" name="country" value="${slot.country ?? ''}">
      <input name="tag" value="${value}" maxlength="100" aria-label="Tag for ${key}" class="mono"${mine ? html` aria-invalid="true"` : ''}${slot.canCarry ? '' : html` disabled`}>
      <button type="submit" class="button button--small"${slot.canCarry ? '' : html` disabled`}>Save</button>
      ${mine && html`<span class="field__error">${Object.values(failed.errors).join(' ')}</span>`}
      ${!mine && slot.effective?.source === 'destination' && html`<span class="small muted">The destination form sets <span class="mono">${slot.effective.tag}</span>; a tag here wins.</span>`}
    </form>`;
  return html`<tr data-store="${key}"${d.isActive ? '' : html` class="is-inactive"`}>
  <td>${slot.country ? html`<span class="muted">${d.displayName}</span>` : html`<a href="/admin/destinations/${d.id}">${d.displayName}</a>`}</td>
  <td data-label="Storefront">${storefrontName(slot.country)} <span class="small muted">${slot.baseUrl.replace(/^https?:\/\//, '')}</span></td>
  <td>${status(slot)}</td>
  <td>${form}</td></tr>`;
}

export function renderAffiliate(viewer: AdminViewer, model: AffiliateModel, days: number): string {
  const { overview } = model;
  const body = html`<div class="page-head"><h1>Affiliate tags</h1></div>
<p class="muted">Your tag for each store and country storefront, added to every link through <code>/go/</code>, on book pages, in the links API and the embed. A change here applies at once on every instance and is written to the audit log. A tag in <code>AFFILIATE_TAGS</code> overrides the one set here for its store: those rows say "from the environment". A country storefront takes only its own tag. Empty a tag and save to remove it.</p>
${untaggedSection(overview.untagged, days)}
<section class="panel" aria-labelledby="tags-title"><header class="panel__head"><h2 id="tags-title">Tags</h2></header>
${model.failed && html`<p class="form-error" role="alert">The tag was not saved: ${Object.values(model.failed.errors).join(' ')}</p>`}
<div class="table-scroll"><table class="data data--affiliate data--stack"><thead><tr><th>Destination</th><th>Storefront</th><th>Status</th><th>Tag</th></tr></thead>
<tbody>${overview.slots.map((slot) => slotRow(viewer, slot, model.failed))}</tbody></table></div>
</section>`;
  return renderAdminPage({
    title: 'Affiliate tags',
    viewer,
    section: 'affiliate',
    notice: model.notice,
    body,
  });
}
