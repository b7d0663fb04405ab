import type { Brand } from '../../services/brand.js';
import type { ValidationIssue } from '../errors.js';
import { html, jsonForScript } from './html.js';
import { DEFAULT_SITE_NAME, renderLayout, searchForm } from './layout.js';

export interface ErrorPageOptions {
  status: number;
  /** Defaults to a title for the status. */
  title?: string;
  /** Ignored for 5xx: a server error page shows only fixed text, so nothing internal can leak. */
  message?: string;
  baseUrl: string;
  /** Prefills the search box (an unknown ISBN, the slug that was not found). */
  searchQuery?: string;
  brand?: Brand;
  /** A 422's SPEC 7 entries: listed for the reader and embedded as JSON (`#validation-errors`). */
  problems?: readonly ValidationIssue[];
}

/** `["query","q"]` reads as "q"; the location is in the JSON for those who need it. */
const fieldOf = (issue: ValidationIssue) => issue.loc.slice(1).join('.') || String(issue.loc[0] ?? '');

function problemList(problems: readonly ValidationIssue[] | undefined) {
  if (!problems?.length) return '';
  return html`<ul class="error__problems">
    ${problems.map((issue) => html`<li><code>${fieldOf(issue)}</code>: ${issue.msg}</li>`)}
  </ul>
  <script type="application/json" id="validation-errors">${jsonForScript({ detail: problems })}</script>`;
}

const DEFAULTS: Readonly<Record<number, { title: string; message: string }>> = {
  400: { title: 'Bad request', message: 'The address is not one this site understands.' },
  403: {
    title: 'Not allowed',
    message: 'This page cannot be opened this way. Try following the link again.',
  },
  404: { title: 'Page not found', message: 'There is no page at this address. Try a search instead.' },
  422: { title: 'Check the address', message: 'Part of this address is not valid. Check it and try again.' },
  429: { title: 'Too many requests', message: 'You are going a little fast. Wait a minute, then try again.' },
  500: {
    title: 'Something went wrong',
    message: 'Something went wrong on our side. Please try again shortly.',
  },
  503: {
    title: 'Temporarily unavailable',
    message: 'The service is busy or under maintenance. Try again shortly.',
  },
};

function defaultsFor(status: number): { title: string; message: string } {
  return DEFAULTS[status] ?? (status >= 500 ? DEFAULTS[500]! : DEFAULTS[400]!);
}

/** An HTML error page in the site's layout, with a search box: every dead end offers a way on. */
export function renderErrorPage(options: ErrorPageOptions): string {
  const fallback = defaultsFor(options.status);
  const title = options.status >= 500 ? fallback.title : (options.title ?? fallback.title);
  const message = options.status >= 500 ? fallback.message : (options.message ?? fallback.message);
  const siteName = options.brand?.siteName ?? DEFAULT_SITE_NAME;
  const body = html`<main id="main" class="error" data-status="${options.status}">
  <p class="error__status">${options.status}</p>
  <h1 class="error__title">${title}</h1>
  <p class="error__message">${message}</p>
  ${problemList(options.problems)}
  ${searchForm(options.searchQuery, 'search search--large', 'Search for a book')}
  <p class="error__home"><a href="${options.baseUrl}/">Go to the home page</a></p>
</main>`;
  return renderLayout({
    title: `${title} · ${siteName}`,
    description: message,
    robots: 'noindex',
    bodyClass: 'page-error',
    headerSearch: false,
    brand: options.brand,
    body,
  });
}

/** The 404 for `/isbn/{isbn}` when no source knows the ISBN (SPEC 7). */
export function renderUnknownIsbnPage(isbn: string, baseUrl: string, brand?: Brand): string {
  return renderErrorPage({
    status: 404,
    title: 'Book not found',
    message: `No source knows the ISBN ${isbn}. Check the number, or search by title or author.`,
    baseUrl,
    searchQuery: isbn,
    brand,
  });
}
