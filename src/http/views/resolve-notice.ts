import { html, type SafeHtml } from './html.js';

/** Why a pasted link led to the search page rather than to a book (the resolver's reason). */
export type ResolveReason = 'unknown_shop' | 'not_book' | 'no_match';

const MESSAGES: Record<ResolveReason, string> = {
  unknown_shop: 'We do not know that shop’s links yet, so we searched for the words in it.',
  not_book:
    'That link is not a page about one book (a search, an author or another product), so we searched for its words.',
  no_match: 'We could not tie that link to one book, so we searched for the words in it.',
};

export function resolveNotice(reason: ResolveReason): SafeHtml {
  return html`<p class="search-notice" role="status" data-resolve-reason="${reason}">${MESSAGES[reason]}</p>`;
}

export function resultCount(count: number): SafeHtml {
  return html`<p class="search-count" data-result-count="${count}">${count === 1 ? '1 result' : `${count} results`}</p>`;
}
