import type { Destination } from '../../../domain/links.js';
import type { TagSlot } from '../../../services/admin/affiliate.js';
import type { LinkRecord } from '../../../services/admin/destinations.js';
import { html, type SafeHtml } from '../html.js';
import { destinationForm, type Preview } from './destination-form.js';
import type { FormErrors, FormValues } from './form.js';
import { actionButton } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';

export interface DestinationPageModel {
  destination: Destination | null;
  aliases: string[];
  links: LinkRecord[];
  /** Its own store's and its storefronts' tags as links get them (see /admin/affiliate). */
  tags?: TagSlot[];
  values: FormValues;
  errors: FormErrors;
  preview: Preview;
  /** A failed row of the bulk view: its id and errors. */
  linkErrors?: { linkId: number; errors: FormErrors };
  notice?: string | null;
}

export function destinationValues(d: Destination): FormValues {
  return {
    display_name: d.displayName,
    new_slug: d.slug,
    short_name: d.shortName,
    description: d.description,
    group: d.group,
    base_url: d.baseUrl,
    icon_url: d.iconUrl,
    brand_color: d.brandColor,
    display_priority: d.displayPriority,
    url_template: d.urlTemplate,
    affiliate_param: d.affiliateParam,
    affiliate_tag: d.affiliateTag,
    is_public: d.isPublic,
    is_active: d.isActive,
    countries: d.countries.join(', '),
    storefronts: Object.entries(d.storefronts)
      .map(([country, front]) => `${country} ${front.template}`)
      .join('\n'),
  };
}

function linkRow(viewer: AdminViewer, destinationId: number, link: LinkRecord, errors: FormErrors): SafeHtml {
  const base = `/admin/destinations/${destinationId}/links`;
  const form = `link-${link.id}`;
  const err = (name: string) => errors[name] && html`<span class="field__error">${errors[name]}</span>`;
  return html`<tr${Object.keys(errors).length ? html` class="is-invalid"` : ''}>
  <td><a href="/admin/books/${link.bookId}">${link.bookTitle}</a></td>
  <td><input form="${form}" name="url" value="${link.url}" aria-label="URL" class="mono">${err('url')}</td>
  <td><input form="${form}" name="label" value="${link.label}" aria-label="Label"><input form="${form}" name="tagline" value="${link.tagline}" aria-label="Tagline" placeholder="tagline"></td>
  <td><input form="${form}" name="active_from" value="${link.activeFrom ?? ''}" aria-label="Active from" placeholder="from">${err('active_from')}
      <input form="${form}" name="active_until" value="${link.activeUntil ?? ''}" aria-label="Active until" placeholder="until">${err('active_until')}</td>
  <td><input form="${form}" name="display_priority" type="number" value="${link.displayPriority}" aria-label="Priority" class="narrow">
      <input form="${form}" type="hidden" name="is_featured" value="false"><label class="small"><input form="${form}" type="checkbox" name="is_featured" value="true"${link.isFeatured ? html` checked` : ''}> featured</label></td>
  <td class="data__actions"><form id="${form}" method="post" action="${base}/update" class="inline-form">${csrfField(viewer)}<input type="hidden" name="link_id" value="${link.id}"><button class="button button--small" type="submit">Update</button></form>
      ${actionButton(viewer, `${base}/remove`, 'link_id', link.id, 'Remove book')}</td>
</tr>`;
}

function linksTable(viewer: AdminViewer, model: DestinationPageModel, d: Destination): SafeHtml {
  if (model.links.length === 0)
    return html`<p class="muted">No book has a curated link to this destination.</p>`;
  return html`<div class="table-scroll"><table class="data data--links">
  <thead><tr><th>Book</th><th>URL</th><th>Label, tagline</th><th>Window</th><th>Priority</th><th></th></tr></thead>
  <tbody>${model.links.map((link) =>
    linkRow(viewer, d.id, link, model.linkErrors?.linkId === link.id ? model.linkErrors.errors : {}),
  )}</tbody></table></div>`;
}

const TAG_SOURCES = {
  environment: 'from the environment',
  admin: 'set in Affiliate tags',
  destination: 'from this form',
} as const;

/** The tags links to this destination carry, so an environment tag never looks like an empty field. */
function tagsPanel(slots: readonly TagSlot[]): SafeHtml {
  if (slots.length === 0) return html``;
  return html`<section class="panel" id="affiliate" aria-labelledby="affiliate-title"><header class="panel__head"><h2 id="affiliate-title">Affiliate tags in use</h2><a class="panel__link" href="/admin/affiliate">Affiliate tags</a></header>
<div class="table-scroll"><table class="data" data-role="tags-in-use"><tbody>${slots.map(
    (
      slot,
    ) => html`<tr><td>${slot.country ?? 'Default store'}</td><td class="mono">${slot.effective?.tag ?? '—'}</td>
<td>${
      !slot.canCarry
        ? html`<span class="tag tag--warn">no affiliate parameter: clicks go out untagged</span>`
        : slot.effective
          ? html`<span class="tag">${TAG_SOURCES[slot.effective.source]}</span>`
          : html`<span class="tag tag--warn">no tag: clicks go out untagged</span>`
    }</td></tr>`,
  )}</tbody></table></div></section>`;
}

export function renderDestinationPage(viewer: AdminViewer, model: DestinationPageModel): string {
  const d = model.destination;
  const title = d ? d.displayName : 'New destination';
  const action = d ? `/admin/destinations/${d.id}` : '/admin/destinations';
  const body = html`<div class="page-head"><div><p class="crumbs"><a href="/admin/destinations">Destinations</a></p><h1>${title}</h1>
  ${d && model.aliases.length > 0 && html`<p class="muted small">Former slugs still redirecting: ${model.aliases.join(', ')}</p>`}</div>
  ${d?.isActive && actionButton(viewer, `/admin/destinations/${d.id}/deactivate`, 'confirm', 'yes', 'Deactivate')}
</div>
<section class="panel">${destinationForm(viewer, action, d ? 'update' : 'create', model.values, model.errors, model.preview)}</section>
${tagsPanel(model.tags ?? [])}
${d && html`<section class="panel" id="links"><header class="panel__head"><h2>Book links</h2></header>${linksTable(viewer, model, d)}</section>`}`;
  return renderAdminPage({ title, viewer, section: 'destinations', notice: model.notice ?? null, body });
}
