import { currentLanguage, t } from '../i18n/context.js';
import type { EmbedData, EmbedLink } from '../presenters/embed.js';
import { assetUrl } from './assets.js';
import { groupTitle, joinNames } from './book-format.js';
import { html, type SafeHtml, safeUrl } from './html.js';

/**
 * The `/embed/{slug}` iframe page: the same card as `/embed.js` draws (same classes, web/embed.css),
 * rendered on the server so it works without script. Links open a new tab: a store must not load
 * inside someone else's frame.
 */

function button(link: EmbedLink): SafeHtml {
  const classes = link.featured ? 'bl-btn bl-btn--featured' : 'bl-btn';
  return html`<li><a class="${classes}" href="${safeUrl(link.url) ?? '#'}" target="_blank" rel="noopener nofollow sponsored">${link.name}${link.label && html` <span class="bl-label">${link.label}</span>`}<span class="bl-sr"> ${t('embed.newTab')}</span></a></li>`;
}

function cover(data: EmbedData): SafeHtml {
  const src = safeUrl(data.book.cover_url);
  return src
    ? html`<img class="bl-cover" src="${src}" alt="" width="72" height="108" referrerpolicy="no-referrer">`
    : html``;
}

export function renderEmbedPage(data: EmbedData, options: { cover: boolean }): string {
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
<p class="bl-foot">${t('embed.foot')}</p>
</main>
</body>
</html>
`;
  return page.value;
}
