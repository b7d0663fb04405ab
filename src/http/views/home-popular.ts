import type { ShelfItem } from '../../services/shelves.js';
import { t } from '../i18n/context.js';
import { joinNames, paletteIndex } from './book-format.js';
import { html, type SafeHtml, safeUrl } from './html.js';

/** The home page after an import and before any featured list: popular books, and how to add any other. */

function popularCover(item: ShelfItem): SafeHtml {
  const palette = `cover--ph${paletteIndex(item.title, 6)}`;
  const src = safeUrl(item.coverUrl);
  return src
    ? html`<img class="featured-list__cover" src="${src}" alt="" width="80" height="120" loading="lazy" data-placeholder="featured-list__cover featured-list__cover--missing ${palette}">`
    : html`<span class="featured-list__cover featured-list__cover--missing ${palette}" aria-hidden="true"><span>${item.title}</span></span>`;
}

export function popularSection(items: readonly ShelfItem[]): SafeHtml {
  if (items.length === 0) return html``;
  return html`<section class="featured-lists popular-books" aria-labelledby="popular-title">
  <h2 id="popular-title">${t('home.popular')}</h2>
  <ul class="featured-lists__grid">${items.map(
    (item) => html`<li class="featured-list">
    <a class="featured-list__link" href="${safeUrl(item.href) ?? '#'}"${item.bookSlug ? html`` : html` rel="nofollow"`}>
      <span class="featured-list__covers" data-count="1">${popularCover(item)}</span>
      <span class="featured-list__name">${item.title}</span>
      ${item.authors.length > 0 && html`<span class="featured-list__meta">${joinNames(item.authors.slice(0, 2))}</span>`}
    </a>
  </li>`,
  )}</ul>
</section>`;
}

export function pasteHint(): SafeHtml {
  return html`<p class="home__hint">${t('home.pasteHint')}</p>`;
}
