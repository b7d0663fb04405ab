import type { Brand } from '../../services/brand.js';
import { currentLanguage, t } from '../i18n/context.js';
import type { EmbedData, EmbedLink, EmbedSite } from '../presenters/embed.js';
import { assetUrl } from './assets.js';
import { groupTitle, joinNames } from './book-format.js';
import { html, type SafeHtml, safeUrl } from './html.js';
import { brandStylesheetLink } from './layout.js';

/**
 * The operator's disclosure and name (and logo) under the card, as embed.js draws them; `embedSite`
 * (presenters/embed.ts) already put the default disclosure in the reader's language.
 */
function foot(site: EmbedSite): SafeHtml {
  const logo = safeUrl(site.logo_url);
  return html`<p class="bl-foot">${site.disclosure} <a class="bl-site" href="${safeUrl(site.url) ?? '/'}" target="_blank" rel="noopener">${logo && html`<img class="bl-logo" src="${logo}" alt="" height="16">`}${site.name}</a></p>`;
}

/**
 * The `/embed/{slug}` iframe page: the same card as `/embed.js` draws (same classes, web/embed.css),
 * rendered on the server so it works without script. Links open a new tab: a store must not load
 * inside someone else's frame.
 */

function button(link: EmbedLink): SafeHtml {
  const classes = `bl-btn bl-btn--${link.kind}${link.featured ? ' bl-btn--featured' : ''}`;
  return html`<li><a class="${classes}" href="${safeUrl(link.url) ?? '#'}" target="_blank" rel="noopener nofollow sponsored" data-kind="${link.kind}">${link.kind === 'search' ? t('embed.search', { name: link.name }) : link.name}${link.label && html` <span class="bl-label">${link.label}</span>`}${link.offer && html` <span class="bl-offer" title="${link.offer.as_of}">${link.offer.text}</span>`}<span class="bl-sr"> ${t('embed.newTab')}</span></a></li>`;
}

function cover(data: EmbedData): SafeHtml {
  const src = safeUrl(data.book.cover_url);
  return src
    ? html`<img class="bl-cover" src="${src}" alt="" width="72" height="108" referrerpolicy="no-referrer">`
    : html``;
}

export function renderEmbedPage(data: EmbedData, options: { cover: boolean; brand: Brand }): string {
  const { book } = data;
  const page = html`<!doctype html>
<html lang="${currentLanguage()}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="color-scheme" content="light dark">
<title>${t('embed.frameTitle', { title: book.title })}</title>
<link rel="canonical" href="${book.url}">
<link rel="stylesheet" href="${assetUrl('embed.css')}">
${brandStylesheetLink(options.brand)}
<script src="${assetUrl('embed-frame.js')}" defer></script>
</head>
<body class="bl-frame" data-slug="${book.slug}">
<main class="bl" aria-label="${t('embed.frameTitle', { title: book.title })}">
<div class="bl-head">
${options.cover && cover(data)}
<div><p class="bl-title"><a href="${safeUrl(book.url) ?? '#'}" target="_blank" rel="noopener">${book.title}</a></p>
${book.authors.length > 0 && html`<p class="bl-authors">${t('book.by', { names: joinNames(book.authors) })}</p>`}</div>
</div>
${data.groups.length === 0 && html`<p class="bl-empty">${t('embed.empty')}</p>`}
${data.groups.map(
  (
    group,
    i,
  ) => html`<div class="bl-group" role="group" aria-labelledby="bl-g${i}"><p class="bl-gtitle" id="bl-g${i}">${groupTitle(group.group)}</p>
<ul class="bl-list">${group.links.map(button)}</ul></div>`,
)}
${foot(data.site)}
</main>
</body>
</html>
`;
  return page.value;
}
