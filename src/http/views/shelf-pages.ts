import { DEFAULT_SITE_NAME } from '../../domain/brand.js';
import type { Brand } from '../../services/brand.js';
import type { AuthorPage, SeriesPage, ShelfItem } from '../../services/shelves.js';
import { t } from '../i18n/context.js';
import { joinNames, paletteIndex } from './book-format.js';
import { html, type SafeHtml, safeUrl } from './html.js';
import { renderLayout } from './layout.js';

/** `/series/{slug}` and `/author/{slug}`: the list page's look, a volume or book per row. */

function itemCover(item: ShelfItem): SafeHtml {
  const palette = `cover--ph${paletteIndex(item.title, 6)}`;
  const src = safeUrl(item.coverUrl);
  if (src)
    return html`<img class="list-item__cover" src="${src}" alt="" width="80" height="120" loading="lazy" data-placeholder="list-item__cover list-item__cover--missing ${palette}">`;
  return html`<span class="list-item__cover list-item__cover--missing ${palette}" aria-hidden="true"></span>`;
}

function shelfItem(item: ShelfItem, rank: string): SafeHtml {
  return html`<li class="list-item"${item.bookSlug ? html` data-slug="${item.bookSlug}"` : html``}>
  <span class="list-item__rank">${rank}</span>
  <a class="list-item__link" href="${safeUrl(item.href) ?? '#'}"${item.bookSlug ? html`` : html` rel="nofollow"`}>
    ${itemCover(item)}
    <span class="list-item__title">${item.title}</span>
    ${item.authors.length > 0 && html`<span class="list-item__authors">${joinNames(item.authors)}</span>`}
  </a>
</li>`;
}

function absolute(baseUrl: string, href: string): string {
  return href.startsWith('/') ? `${baseUrl}${href}` : href;
}

function page(options: {
  baseUrl: string;
  path: string;
  title: string;
  description: string;
  jsonLd: unknown;
  body: SafeHtml;
  brand?: Brand;
}): string {
  const url = `${options.baseUrl}${options.path}`;
  return renderLayout({
    title: t('common.documentTitle', {
      title: options.title,
      site: options.brand?.siteName ?? DEFAULT_SITE_NAME,
    }),
    brand: options.brand,
    description: options.description,
    canonicalUrl: url,
    meta: [
      { property: 'og:title', content: options.title },
      { property: 'og:type', content: 'website' },
      { property: 'og:url', content: url },
    ],
    jsonLd: options.jsonLd,
    bodyClass: 'page-list',
    scripts: ['cover-swap.js'],
    body: options.body,
  });
}

export function renderSeriesPage(model: SeriesPage, baseUrl: string, brand?: Brand): string {
  const path = `/series/${encodeURIComponent(model.slug)}`;
  const count = model.volumes.length;
  return page({
    brand,
    baseUrl,
    path,
    title: model.name,
    description: t('series.description', {
      name: model.name,
      titles: model.volumes
        .slice(0, 5)
        .map((volume) => volume.title)
        .join(', '),
    }),
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'BookSeries',
      name: model.name,
      url: `${baseUrl}${path}`,
      hasPart: model.volumes.map((volume, i) => ({
        '@type': 'Book',
        name: volume.title,
        position: volume.number ?? i + 1,
        url: absolute(baseUrl, volume.href),
        ...(volume.isbn13 ? { isbn: volume.isbn13 } : {}),
        ...(volume.authors.length > 0
          ? { author: volume.authors.map((name) => ({ '@type': 'Person', name })) }
          : {}),
      })),
    },
    body: html`<main id="main" class="list-page series-page">
  <h1>${model.name}</h1>
  <p class="list-meta">${t('series.meta', { count })}</p>
  <ol class="list-items">${model.volumes.map((volume, i) => shelfItem(volume, volume.number === null ? '·' : String(volume.number ?? i + 1)))}</ol>
</main>`,
  });
}

export function renderAuthorPage(model: AuthorPage, baseUrl: string, brand?: Brand): string {
  const path = `/author/${encodeURIComponent(model.slug)}`;
  return page({
    brand,
    baseUrl,
    path,
    title: model.name,
    description: t('author.description', {
      name: model.name,
      titles: model.books
        .slice(0, 5)
        .map((book) => book.title)
        .join(', '),
    }),
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Person',
      name: model.name,
      url: `${baseUrl}${path}`,
      workExample: model.books.map((book) => ({
        '@type': 'Book',
        name: book.title,
        url: absolute(baseUrl, book.href),
        ...(book.isbn13 ? { isbn: book.isbn13 } : {}),
      })),
    },
    body: html`<main id="main" class="list-page author-page">
  <h1>${model.name}</h1>
  <p class="list-meta">${t('author.meta', { name: model.name })}</p>
  <ol class="list-items">${model.books.map((book, i) => shelfItem(book, String(i + 1)))}</ol>
</main>`,
  });
}
