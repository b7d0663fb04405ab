import type { Brand } from '../../services/brand.js';
import { paletteIndex } from './book-format.js';
import { html, type SafeHtml, safeUrl } from './html.js';
import { DEFAULT_SITE_NAME, renderLayout, searchForm } from './layout.js';
import { type ResolveReason, resolveNotice, resultCount } from './resolve-notice.js';

/** One result as the page shows it; `href` is the pick link that creates the book for a reader. */
export interface SearchResultView {
  title: string;
  authors: readonly string[];
  coverUrl: string | null;
  year: string | null;
  isbn: string | null;
  href: string;
}

export interface SearchPageModel {
  query: string;
  sfid: number | null;
  results: readonly SearchResultView[];
  brand?: Brand;
  /** Set when a pasted link led here: why it named no book (see resolve-notice.ts). */
  resolveReason?: ResolveReason | null;
  /** Some book source could not be asked (its request budget is spent): the results may be incomplete. */
  incomplete?: boolean;
}

const INCOMPLETE =
  'Some book sources could not be asked just now (this site has used up its requests to them for the moment), so these results may be incomplete. Try again in a minute.';

function resultItem(result: SearchResultView, position: number): SafeHtml {
  const cover = safeUrl(result.coverUrl);
  return html`<li class="search-result" data-position="${position}">
  <a class="search-result__link" href="${result.href}">
    ${cover ? html`<img class="search-result__cover" src="${cover}" alt="" width="60" height="90" loading="lazy" data-placeholder="search-result__cover search-result__cover--none cover--ph${paletteIndex(result.title, 6)}">` : html`<span class="search-result__cover search-result__cover--none cover--ph${paletteIndex(result.title, 6)}" aria-hidden="true"></span>`}
    <span class="search-result__text">
      <span class="search-result__title">${result.title}</span>
      ${result.authors.length > 0 && html`<span class="search-result__authors">${result.authors.join(', ')}</span>`}
      ${result.year && html`<span class="search-result__year">${result.year}</span>`}
    </span>
  </a>
</li>`;
}

/** "Can't find my book": a plain POST form, so it works without JavaScript; web/search.js enhances it. */
function missForm(model: SearchPageModel): SafeHtml {
  return html`<form class="search-miss" action="/search/miss" method="post" data-search-miss>
  <input type="hidden" name="query" value="${model.query}">
  <input type="hidden" name="result_count" value="${model.results.length}">
  ${model.sfid !== null && html`<input type="hidden" name="sfid" value="${model.sfid}">`}
  <h2 class="search-miss__title">Can't find your book?</h2>
  <label for="search-miss-details">Tell us what you were looking for (optional)</label>
  <textarea id="search-miss-details" name="details" maxlength="2000" rows="2"></textarea>
  <button type="submit" class="button">I can't find my book</button>
  <p class="search-miss__thanks" role="status" hidden>Thank you. We will look into it.</p>
</form>`;
}

export function renderSearchPage(model: SearchPageModel): string {
  const siteName = model.brand?.siteName ?? DEFAULT_SITE_NAME;
  const heading = model.query ? html`Results for “${model.query}”` : html`Find a book`;
  const list =
    model.results.length > 0
      ? html`<ol class="search-results">${model.results.map((result, i) => resultItem(result, i + 1))}</ol>`
      : model.query &&
        html`<p class="search-empty">No books match “${model.query}”. Check the spelling, or try the author's name or the ISBN.</p>`;
  const body = html`<main id="main" class="search-page" data-sfid="${model.sfid ?? ''}">
  ${model.resolveReason && resolveNotice(model.resolveReason)}
  ${model.incomplete === true && html`<p class="search-notice" role="status" data-results-incomplete>${INCOMPLETE}</p>`}
  <h1>${heading}</h1>
  ${searchForm(model.query, 'search search--large', 'Search for a book')}
  ${model.query && resultCount(model.results.length)}
  ${list}
  ${model.query && missForm(model)}
</main>`;
  return renderLayout({
    title: model.query ? `${model.query} · Search · ${siteName}` : `Search · ${siteName}`,
    description: 'Find a book by title, author or ISBN.',
    robots: 'noindex',
    bodyClass: 'page-search',
    searchQuery: model.query,
    scripts: ['search.js', 'cover-swap.js'],
    brand: model.brand,
    body,
  });
}

export function renderMissThanks(query: string, brand?: Brand): string {
  const siteName = brand?.siteName ?? DEFAULT_SITE_NAME;
  const body = html`<main id="main" class="search-page">
  <h1>Thank you</h1>
  <p>We noted that you could not find “${query}”. We use these notes to add missing books.</p>
  ${searchForm(query, 'search search--large', 'Search again')}
</main>`;
  return renderLayout({
    title: `Thank you · ${siteName}`,
    description: 'Your note about a missing book was recorded.',
    robots: 'noindex',
    bodyClass: 'page-search',
    brand,
    body,
  });
}
