import { DEFAULT_SITE_NAME } from '../../domain/brand.js';
import type { Brand } from '../../services/brand.js';
import type { List, ListItem } from '../../services/lists.js';
import { t } from '../i18n/context.js';
import { displayDate, joinNames, paletteIndex } from './book-format.js';
import { html, type SafeHtml, safeUrl } from './html.js';
import { renderLayout } from './layout.js';
import { oembedDiscoveryLink } from './oembed.js';

export interface ListPageModel {
  list: List;
  items: ListItem[];
  baseUrl: string;
  /** Canonical path of the list. */
  path: string;
}

export function listTitle(list: Pick<List, 'name' | 'source'>): string {
  return list.name?.trim() || (list.source ? t('list.from', { source: list.source }) : t('list.untitled'));
}

function itemCover(item: ListItem): SafeHtml {
  const src = safeUrl(item.book.coverUrl);
  if (src)
    return html`<img class="list-item__cover" src="${src}" alt="" width="80" height="120" loading="lazy" data-placeholder="list-item__cover list-item__cover--missing cover--ph${paletteIndex(item.book.title, 6)}">`;
  return html`<span class="list-item__cover list-item__cover--missing cover--ph${paletteIndex(item.book.title, 6)}" aria-hidden="true"></span>`;
}

function listItem(item: ListItem, index: number): SafeHtml {
  const href = `/book/${encodeURIComponent(item.book.slug)}`;
  return html`<li class="list-item" data-book-id="${item.book.id}" data-slug="${item.book.slug}">
  <span class="list-item__rank">${item.rank ?? index + 1}</span>
  <a class="list-item__link" href="${href}">
    ${itemCover(item)}
    <span class="list-item__title">${item.book.title}</span>
    ${item.book.authors.length > 0 && html`<span class="list-item__authors">${joinNames(item.book.authors)}</span>`}
  </a>
</li>`;
}

function meta(list: List): SafeHtml {
  const parts: Array<SafeHtml | string> = [];
  if (list.source && list.kind === 'ingest') parts.push(t('list.source', { source: list.source }));
  if (list.listDate) parts.push(html`<time datetime="${list.listDate}">${displayDate(list.listDate)}</time>`);
  return parts.length > 0
    ? html`<p class="list-meta">${parts.map((part, i) => html`${i > 0 ? ' · ' : ''}${part}`)}</p>`
    : html``;
}

export function renderListPage(model: ListPageModel, brand?: Brand): string {
  const { list, items } = model;
  const title = listTitle(list);
  const body = html`<main id="main" class="list-page" data-list-id="${list.publicId}">
  <h1>${title}</h1>
  ${meta(list)}
  ${list.description && html`<p class="list-description">${list.description}</p>`}
  ${
    items.length > 0
      ? html`<ol class="list-items">${items.map(listItem)}</ol>`
      : html`<p class="empty">${t('list.empty')}</p>`
  }
</main>`;
  const url = `${model.baseUrl}${model.path}`;
  return renderLayout({
    title: t('common.documentTitle', { title, site: brand?.siteName ?? DEFAULT_SITE_NAME }),
    brand,
    description: t('list.description', {
      count: items.length,
      titles: items
        .slice(0, 5)
        .map((item) => item.book.title)
        .join(', '),
    }),
    canonicalUrl: `${model.baseUrl}${model.path}`,
    meta: [
      { property: 'og:title', content: title },
      { property: 'og:type', content: 'website' },
      { property: 'og:url', content: `${model.baseUrl}${model.path}` },
    ],
    links: [oembedDiscoveryLink(model.baseUrl, url, title)],
    bodyClass: 'page-list',
    scripts: ['cover-swap.js'],
    body,
  });
}
