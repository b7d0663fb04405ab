import type { Brand } from '../../services/brand.js';
import type { ValidationIssue } from '../errors.js';
import type { MessageKey } from '../i18n/catalogue.js';
import { t, tHtml } from '../i18n/context.js';
import { html, jsonForScript, type SafeHtml, safeUrl } from './html.js';
import { DEFAULT_SITE_NAME, renderLayout, searchForm } from './layout.js';
import { missReportForm } from './miss-form.js';

export interface ErrorPageOptions {
  status: number;
  /** Already in the reader's language; defaults to a title for the status. */
  title?: string;
  /** Already in the reader's language. Ignored for 5xx: a server error page shows only fixed text. */
  message?: string;
  baseUrl: string;
  /** Prefills the search box (an unknown ISBN, the slug that was not found). */
  searchQuery?: string;
  brand?: Brand;
  /** A 422's SPEC 7 entries, embedded as JSON (`#validation-errors`) for programs, not shown raw. */
  problems?: readonly ValidationIssue[];
  /** More of the page after the message (the unknown ISBN's store searches). */
  extra?: SafeHtml;
}

function problemData(problems: readonly ValidationIssue[] | undefined) {
  if (!problems?.length) return '';
  return html`<script type="application/json" id="validation-errors">${jsonForScript({ detail: problems })}</script>`;
}

const DEFAULTS: Readonly<Record<number, { title: MessageKey; message: MessageKey }>> = {
  400: { title: 'error.400.title', message: 'error.400.message' },
  403: { title: 'error.403.title', message: 'error.403.message' },
  404: { title: 'error.404.title', message: 'error.404.message' },
  408: { title: 'error.408.title', message: 'error.408.message' },
  414: { title: 'error.414.title', message: 'error.414.message' },
  422: { title: 'error.422.title', message: 'error.422.message' },
  429: { title: 'error.429.title', message: 'error.429.message' },
  431: { title: 'error.431.title', message: 'error.431.message' },
  500: { title: 'error.500.title', message: 'error.500.message' },
  503: { title: 'error.503.title', message: 'error.503.message' },
};

function defaultsFor(status: number): { title: MessageKey; message: MessageKey } {
  return DEFAULTS[status] ?? (status >= 500 ? DEFAULTS[500]! : DEFAULTS[400]!);
}

/** An HTML error page in the site's layout, with a search box: every dead end offers a way on. */
export function renderErrorPage(options: ErrorPageOptions): string {
  const fallback = defaultsFor(options.status);
  const title = options.status >= 500 ? t(fallback.title) : (options.title ?? t(fallback.title));
  const message = options.status >= 500 ? t(fallback.message) : (options.message ?? t(fallback.message));
  const siteName = options.brand?.siteName ?? DEFAULT_SITE_NAME;
  const body = html`<main id="main" class="error" data-status="${options.status}">
  <h1 class="error__title">${title}</h1>
  <p class="error__message">${message}</p>
  ${options.extra}
  ${problemData(options.problems)}
  ${searchForm(options.searchQuery, 'search search--large', t('search.label'))}
  <p class="error__home"><a href="${options.baseUrl}/">${t('common.home')}</a></p>
</main>`;
  return renderLayout({
    title: t('error.documentTitle', { title, site: siteName }),
    description: message,
    robots: 'noindex',
    bodyClass: 'page-error',
    headerSearch: false,
    brand: options.brand,
    body,
  });
}

/** A store's search for an ISBN, offered when no catalogue knows the book. */
export interface IsbnSearchLink {
  name: string;
  url: string;
}

/**
 * `/isbn/{isbn}` when no catalogue knows the ISBN (SPEC 7, issue 44): says so in the reader's
 * language, keeps the ISBN in the search box, and offers searches for it at a few stores and
 * WorldCat, and the missing-book report.
 */
export function renderUnknownIsbnPage(
  isbn: string,
  baseUrl: string,
  brand?: Brand,
  stores: readonly IsbnSearchLink[] = [],
): string {
  const links = stores
    .map((store) => ({ name: store.name, url: safeUrl(store.url) }))
    .filter((store): store is { name: string; url: string } => store.url !== null);
  const extra = html`${
    links.length > 0 &&
    html`<section class="error__stores" aria-labelledby="isbn-stores-title">
  <h2 id="isbn-stores-title">${t('isbn.unknown.storesTitle')}</h2>
  <ul class="error__store-list">${links.map(
    (store) =>
      html`<li><a class="button button--quiet" href="${store.url}" rel="nofollow noopener" data-isbn-search>${t('isbn.unknown.searchAt', { store: store.name })}</a></li>`,
  )}</ul>
</section>`
  }
${missReportForm({ query: isbn, resultCount: 0 })}`;
  return renderErrorPage({
    status: 404,
    title: t('isbn.unknown.title'),
    message: t('isbn.unknown.message', { isbn }),
    baseUrl,
    searchQuery: isbn,
    brand,
    extra,
  });
}

/** `/isbn/{typed}` that is no ISBN: what an ISBN looks like, in plain words, and the search box. */
export function renderBadIsbnPage(
  typed: string,
  baseUrl: string,
  problems: readonly ValidationIssue[],
  brand?: Brand,
): string {
  return renderErrorPage({
    status: 422,
    title: t('isbn.bad.title'),
    message: t('isbn.bad.message', { typed }),
    baseUrl,
    searchQuery: typed,
    brand,
    problems,
    extra: html`<p class="error__hint">${tHtml('isbn.bad.example', {
      example: html`<code>978-0-439-02348-1</code>`,
      short: html`<code>0-439-02348-3</code>`,
    })}</p>`,
  });
}
