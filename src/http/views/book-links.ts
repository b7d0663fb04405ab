import type { DestinationGroup } from '../../domain/groups.js';
import { t, tHtml } from '../i18n/context.js';
import { displayFormat, groupTitle } from './book-format.js';
import { html, raw, type SafeHtml, safeUrl } from './html.js';
import type { CountryView, DestinationLinkView, LinkGroupView } from './models.js';

/**
 * The destination lists. Colours reach the browser as `data-brand` (applied by web/book.js through
 * the CSSOM) rather than a `style` attribute, so a strict `style-src 'self'` policy still holds.
 */

// Outline icons after Feather (MIT); drawn inline so they inherit currentColor and need no request.
const GROUP_ICONS: Readonly<Record<DestinationGroup, string>> = {
  new: '<path d="M6 2 3 6v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6l-3-4z"/><path d="M3 6h18"/><path d="M16 10a4 4 0 0 1-8 0"/>',
  used: '<path d="M23 4v6h-6"/><path d="M1 20v-6h6"/><path d="M3.5 9a9 9 0 0 1 14.9-3.4L23 10M1 14l4.6 4.4A9 9 0 0 0 20.5 15"/>',
  ebook: '<rect x="5" y="2" width="14" height="20" rx="2"/><path d="M11 18h2"/>',
  audiobook:
    '<path d="M3 18v-6a9 9 0 0 1 18 0v6"/><path d="M21 19a2 2 0 0 1-2 2h-1a2 2 0 0 1-2-2v-3a2 2 0 0 1 2-2h3zM3 19a2 2 0 0 0 2 2h1a2 2 0 0 0 2-2v-3a2 2 0 0 0-2-2H3z"/>',
  library: '<path d="M3 21h18"/><path d="M12 3 3 8h18z"/><path d="M6 11v7M10 11v7M14 11v7M18 11v7"/>',
  free: '<path d="M2 3h6a4 4 0 0 1 4 4v14a3 3 0 0 0-3-3H2z"/><path d="M22 3h-6a4 4 0 0 0-4 4v14a3 3 0 0 1 3-3h7z"/>',
};

export function groupIcon(group: DestinationGroup): SafeHtml {
  return html`<svg class="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">${raw(GROUP_ICONS[group])}</svg>`;
}

/** Only plain hex colours pass: the value ends up in a CSS custom property. */
export function brandColor(color: string | null): string | null {
  return color && /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color.trim()) ? color.trim() : null;
}

function badge(link: DestinationLinkView): SafeHtml {
  const icon = safeUrl(link.iconUrl);
  if (icon) {
    return html`<img class="dest__icon" src="${icon}" alt="" width="32" height="32" loading="lazy" decoding="async">`;
  }
  const initial = Array.from(link.name.trim())[0]?.toUpperCase() ?? '?';
  return html`<span class="dest__badge" aria-hidden="true">${initial}</span>`;
}

const GO_ICON = raw('<path d="M9 6l6 6-6 6"/>');
const SEARCH_ICON = raw('<circle cx="11" cy="11" r="7"/><path d="m20 20-4-4"/>');

/**
 * A search link reads "Search Kobo" and shows a magnifier; a product link names the store and, where
 * known, the edition it opens ("Paperback"). Screen readers hear the same words (no aria-label hides them).
 */
function linkName(link: DestinationLinkView): SafeHtml {
  if (link.kind === 'search') {
    return tHtml('book.link.search', {
      name: link.name,
      verb: (chunks) => html`<span class="dest__verb">${chunks}</span>`,
    });
  }
  return html`${link.name}`;
}

function linkKindNote(link: DestinationLinkView): SafeHtml {
  if (link.kind === 'search') return html`<span class="dest__kind">${t('book.link.searchNote')}</span>`;
  return html`<span class="dest__kind">${link.format ? t('book.link.productFormat', { format: displayFormat(link.format) }) : t('book.link.product')}</span>`;
}

/** The offer on a button ("£7.99", "Borrow now"), and when it was read, as the button's description. */
function offerNote(link: DestinationLinkView): SafeHtml {
  const { offer } = link;
  if (!offer) return html``;
  return html`<span class="dest__offer" data-offer="${offer.state}">${offer.text}</span><span class="dest__asof" id="asof-${link.destinationSlug}">${offer.asOf}</span>`;
}

export function destinationLink(link: DestinationLinkView, extraClass = ''): SafeHtml {
  const classes = ['dest', `dest--${link.kind}`, link.featured ? 'dest--featured' : '', extraClass]
    .filter(Boolean)
    .join(' ');
  const describedBy = link.offer ? html` aria-describedby="asof-${link.destinationSlug}"` : html``;
  return html`<a class="${classes}" href="${safeUrl(link.href) ?? '#'}" rel="nofollow sponsored noopener" data-destination="${link.destinationSlug}" data-group="${link.group}" data-kind="${link.kind}"${brandAttr(link)}${describedBy}>
  ${badge(link)}
  <span class="dest__text">
    <span class="dest__name">${linkName(link)}${link.label && html` <span class="dest__label">${link.label}</span>`}</span>
    ${link.tagline ? html`<span class="dest__tagline">${link.tagline}</span>` : linkKindNote(link)}
    ${offerNote(link)}
  </span>
  <svg class="dest__go" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">${link.kind === 'search' ? SEARCH_ICON : GO_ICON}</svg>
</a>`;
}

function brandAttr(link: DestinationLinkView): SafeHtml {
  const color = brandColor(link.brandColor);
  return color ? html` data-brand="${color}"` : html``;
}

function groupSection(group: LinkGroupView, highlight: string | null): SafeHtml {
  return html`<section class="group" data-group="${group.group}" aria-labelledby="group-${group.group}">
  <h3 class="group__title" id="group-${group.group}">${groupIcon(group.group)}${groupTitle(group.group)}</h3>
  <ul class="dest-list">
    ${group.links.map(
      (link) =>
        html`<li>${destinationLink(link, link.destinationSlug === highlight ? 'dest--picked' : '')}</li>`,
    )}
  </ul>
</section>`;
}

export function findHighlight(
  groups: readonly LinkGroupView[],
  slug: string | null,
): DestinationLinkView | null {
  if (!slug) return null;
  for (const group of groups) {
    const link = group.links.find((candidate) => candidate.destinationSlug === slug);
    if (link) return link;
  }
  return null;
}

/** The boolean attribute of the country shown now (markup, not text). */
const SELECTED = raw(' selected');

/** "Shops for the United Kingdom · change": a GET form to /country, so it needs no script. */
export function countryBar(country: CountryView | null | undefined): SafeHtml {
  if (!country) return html``;
  return html`<div class="country" data-country="${country.code}">
  <span>${t('book.country.shops', { code: country.code, country: country.name })}</span><span aria-hidden="true">·</span>
  <details><summary class="country__change">${t('book.country.change')}</summary>
    <form method="get" action="/country">
      <label for="country-choice">${t('book.country.label')}</label>
      <select id="country-choice" name="country">${country.choices.map(
        (choice) =>
          html`<option value="${choice.code}"${choice.code === country.code ? SELECTED : ''}>${choice.name}</option>`,
      )}</select>
      <input type="hidden" name="back" value="${country.back}">
      <button type="submit" class="button button--small">${t('book.country.submit')}</button>
    </form>
  </details>
</div>`;
}

/** "Your pick" first (the `use=` destination), then every non-empty group in the model's order. */
export function renderDestinations(
  groups: readonly LinkGroupView[],
  highlight: string | null,
  country: CountryView | null = null,
): SafeHtml {
  const visible = groups.filter((group) => group.links.length > 0);
  const pick = findHighlight(visible, highlight);
  if (visible.length === 0) {
    return html`<section class="where" aria-labelledby="where-title">
  <h2 id="where-title">${t('book.where')}</h2>
  ${countryBar(country)}
  <p class="empty">${t('book.whereEmpty')}</p>
</section>`;
  }
  return html`<section class="where" aria-labelledby="where-title">
  <h2 id="where-title">${t('book.where')}</h2>
  ${countryBar(country)}
  ${pick && html`<div class="pick" data-pick="${pick.destinationSlug}"><p class="pick__title">${t('book.pick')}</p>${destinationLink(pick, 'dest--pick')}</div>`}
  <div class="groups">
    ${visible.map((group) => groupSection(group, highlight))}
  </div>
</section>`;
}
