import { t } from '../i18n/context.js';
import { groupTitle } from './book-format.js';
import { html, type SafeHtml } from './html.js';
import type { BookPageModel } from './models.js';

/**
 * Jump links to each format's group, under the title. On a phone two dozen stores fill three screens;
 * these take the reader straight to "Ebook" or "Read free". Shown only on narrow screens (CSS).
 */
export function formatJumps(model: BookPageModel): SafeHtml {
  const groups = model.groups.filter((group) => group.links.length > 0);
  if (groups.length < 2) return html``;
  return html`<nav class="format-jumps" aria-label="${t('book.jumps')}">
  <ul>${groups.map((group) => html`<li><a href="#group-${group.group}">${groupTitle(group.group)}</a></li>`)}</ul>
</nav>`;
}
