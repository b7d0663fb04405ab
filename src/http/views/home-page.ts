import { DEFAULT_BRAND } from '../../domain/brand.js';
import type { Book } from '../../services/book-pages.js';
import type { Brand } from '../../services/brand.js';
import type { List } from '../../services/lists.js';
import type { ShelfItem } from '../../services/shelves.js';
import { t } from '../i18n/context.js';
import { joinNames, paletteIndex } from './book-format.js';
import { pasteHint, popularSection } from './home-popular.js';
import { html, type SafeHtml, safeUrl } from './html.js';
import { renderLayout, searchForm } from './layout.js';
import { listTitle } from './list-page.js';

/** A featured list as the home page shows it: its address, size and the first few covers. */
export interface FeaturedListView {
  list: List;
  href: string;
  count: number;
  books: readonly Book[];
}

/** How many covers a featured list shows, fanned like books on a shelf. */
export const FEATURED_COVERS = 3;

function thumb(book: Book): SafeHtml {
  const src = safeUrl(book.coverUrl);
  return src
    ? html`<img class="featured-list__cover" src="${src}" alt="" width="80" height="120" loading="lazy" data-placeholder="featured-list__cover featured-list__cover--missing cover--ph${paletteIndex(book.title, 6)}">`
    : html`<span class="featured-list__cover featured-list__cover--missing cover--ph${paletteIndex(book.title, 6)}" aria-hidden="true"><span>${book.title}</span></span>`;
}

function featuredCard(item: FeaturedListView): SafeHtml {
  const names = joinNames(item.books.slice(0, 2).flatMap((book) => book.authors.slice(0, 1)));
  return html`<li class="featured-list">
  <a class="featured-list__link" href="${item.href}">
    <span class="featured-list__covers" data-count="${Math.min(item.books.length, FEATURED_COVERS)}">${item.books.slice(0, FEATURED_COVERS).map(thumb)}</span>
    <span class="featured-list__name">${listTitle(item.list)}</span>
    <span class="featured-list__meta">${t('common.books', { count: item.count })}${names && html` · ${names}`}</span>
  </a>
</li>`;
}

/** The home page: the search box up front and the operator's featured lists as a grid of covers. */
export function renderHome(
  featured: readonly FeaturedListView[],
  baseUrl: string,
  popular: readonly ShelfItem[] = [],
  brand: Brand = DEFAULT_BRAND,
): string {
  const description = t('home.description');
  const title = t('home.documentTitle', { site: brand.siteName });
  const lists =
    featured.length > 0
      ? html`<section class="featured-lists" aria-labelledby="featured-title">
  <h2 id="featured-title">${t('home.featured')}</h2>
  <ul class="featured-lists__grid">${featured.map(featuredCard)}</ul>
</section>`
      : html``;
  return renderLayout({
    title,
    description,
    canonicalUrl: `${baseUrl}/`,
    meta: [
      { property: 'og:type', content: 'website' },
      { property: 'og:site_name', content: brand.siteName },
      { property: 'og:title', content: title },
      { property: 'og:description', content: description },
      { property: 'og:url', content: `${baseUrl}/` },
      { name: 'twitter:card', content: 'summary' },
      { name: 'twitter:title', content: title },
    ],
    brand,
    headerSearch: false,
    bodyClass: 'page-home',
    scripts: ['cover-swap.js'],
    body: html`<main id="main" class="home">
  <section class="home__hero">
    <h1>${t('home.heading')}</h1>
    <p class="home__lead">${t('home.lead')}</p>
    ${searchForm(undefined, 'search search--home search--large', t('layout.search.label'))}
    ${pasteHint()}
  </section>
  ${lists}
  ${featured.length === 0 && popularSection(popular)}
  <p class="home__saved"><a href="/saved">${t('home.saved')}</a></p>
</main>`,
  });
}
