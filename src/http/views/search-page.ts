import type { Brand } from '../../services/brand.js';
import { t, tHtml } from '../i18n/context.js';
import { paletteIndex } from './book-format.js';
import { html, type SafeHtml, safeUrl } from './html.js';
import { DEFAULT_SITE_NAME, renderLayout, searchForm } from './layout.js';
import { missReportForm } from './miss-form.js';
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
  /** The shop whose link it was (its host), when known. */
  resolveStore?: string | null;
  /** Some book source could not be asked (its request budget is spent): the results may be incomplete. */
  incomplete?: boolean;
  /** The results are for this respelt or shortened reading of the query (issue 44). */
  readAs?: string | null;
  /** The query was an ISBN: a miss is never a spelling matter. */
  isbnQuery?: boolean;
}

const searchHref = (query: string, exact = false) =>
  `/search?${new URLSearchParams(exact ? { q: query, exact: '1' } : { q: query })}`;

/** "Showing results for … · Search instead for …", as search engines say it. */
function readingNotice(query: string, readAs: string): SafeHtml {
  return html`<p class="search-reading" data-read-as="${readAs}">${tHtml('search.showingFor', {
    reading: html`<a href="${searchHref(readAs)}"><strong>${readAs}</strong></a>`,
  })} · ${tHtml('search.insteadFor', { query: html`<a href="${searchHref(query, true)}">${query}</a>` })}</p>`;
}

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

export function renderSearchPage(model: SearchPageModel): string {
  const siteName = model.brand?.siteName ?? DEFAULT_SITE_NAME;
  const heading = model.query ? t('search.heading', { query: model.query }) : t('search.headingEmpty');
  const list =
    model.results.length > 0
      ? html`<ol class="search-results">${model.results.map((result, i) => resultItem(result, i + 1))}</ol>`
      : model.query &&
        html`<p class="search-empty">${t(model.isbnQuery ? 'search.emptyIsbn' : 'search.empty', { query: model.query })}</p>`;
  const body = html`<main id="main" class="search-page" data-sfid="${model.sfid ?? ''}">
  ${model.resolveReason && resolveNotice(model.resolveReason, model.resolveStore ?? null, model.query)}
  ${model.incomplete === true && html`<p class="search-notice" role="status" data-results-incomplete>${t('search.incomplete')}</p>`}
  <h1>${heading}</h1>
  ${model.readAs && model.results.length > 0 && readingNotice(model.query, model.readAs)}
  ${searchForm(model.query, 'search search--large', t('search.label'))}
  ${model.query && resultCount(model.results.length)}
  ${list}
  ${model.query && missReportForm({ query: model.query, resultCount: model.results.length, sfid: model.sfid })}
</main>`;
  return renderLayout({
    title: model.query
      ? t('search.documentTitle', { query: model.query, site: siteName })
      : t('search.documentTitleEmpty', { site: siteName }),
    description: t('search.description'),
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
  <h1>${t('search.thanks.heading')}</h1>
  <p>${t('search.thanks.text', { query })}</p>
  ${searchForm(query, 'search search--large', t('search.thanks.again'))}
</main>`;
  return renderLayout({
    title: t('search.thanks.documentTitle', { site: siteName }),
    description: t('search.thanks.description'),
    robots: 'noindex',
    bodyClass: 'page-search',
    brand,
    body,
  });
}
