import type { MessageKey } from '../i18n/catalogue.js';
import { t } from '../i18n/context.js';
import { html, type SafeHtml } from './html.js';

/** Why a pasted link led to the search page rather than to a book (the resolver's reason). */
export type ResolveReason = 'unknown_shop' | 'not_book' | 'no_match';

const MESSAGES: Record<ResolveReason, { store: MessageKey; plain: MessageKey }> = {
  unknown_shop: { store: 'resolve.unknownShop.store', plain: 'resolve.unknownShop' },
  not_book: { store: 'resolve.notBook.store', plain: 'resolve.notBook' },
  no_match: { store: 'resolve.noMatch.store', plain: 'resolve.noMatch' },
};

/** Which shop's link was read, why it named no book, and the words searched for instead. */
export function resolveNotice(reason: ResolveReason, store: string | null, words: string): SafeHtml {
  const text = store ? t(MESSAGES[reason].store, { store, words }) : t(MESSAGES[reason].plain, { words });
  return html`<p class="search-notice" role="status" data-resolve-reason="${reason}"${store ? html` data-resolve-store="${store}"` : html``}>${text}</p>`;
}

export function resultCount(count: number): SafeHtml {
  return html`<p class="search-count" data-result-count="${count}">${t('search.count', { count })}</p>`;
}
