import type { MessageKey } from '../i18n/catalogue.js';
import { t } from '../i18n/context.js';
import { html, type SafeHtml } from './html.js';

/** Why a pasted link led to the search page rather than to a book (the resolver's reason). */
export type ResolveReason = 'unknown_shop' | 'not_book' | 'no_match';

const MESSAGES: Record<ResolveReason, MessageKey> = {
  unknown_shop: 'resolve.unknownShop',
  not_book: 'resolve.notBook',
  no_match: 'resolve.noMatch',
};

export function resolveNotice(reason: ResolveReason): SafeHtml {
  return html`<p class="search-notice" role="status" data-resolve-reason="${reason}">${t(MESSAGES[reason])}</p>`;
}

export function resultCount(count: number): SafeHtml {
  return html`<p class="search-count" data-result-count="${count}">${t('search.count', { count })}</p>`;
}
