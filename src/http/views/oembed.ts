import type { Box } from '../../domain/oembed.js';
import { t } from '../i18n/context.js';
import { html, type SafeHtml, safeUrl } from './html.js';

/**
 * The markup oEmbed hands a consumer to paste into its page (WordPress, Ghost, Discourse), and the
 * `<link>` by which a consumer finds our oEmbed answer for a page. The same text as the embed panel's.
 */

/** `/oembed?url=…&format=json` for one of our pages: the href of its discovery link. */
export function oembedEndpoint(baseUrl: string, pageUrl: string): string {
  return `${baseUrl}/oembed?url=${encodeURIComponent(pageUrl)}&format=json`;
}

/** The discovery `<link>` (oEmbed spec section 4) a page carries in its head. */
export function oembedDiscoveryLink(baseUrl: string, pageUrl: string, title: string): SafeHtml {
  return html`<link rel="alternate" type="application/json+oembed" href="${oembedEndpoint(baseUrl, pageUrl)}" title="${title}">`;
}

/** The iframe of `/embed/{slug}`, a page any site may frame; it has no border, margin or script. */
export function bookFrameMarkup(frameUrl: string, title: string, box: Box): string {
  return html`<iframe src="${frameUrl}" width="${box.width}" height="${box.height}" title="${t('embed.frameTitle', { title })}" style="border:0;max-width:100%" loading="lazy"></iframe>`
    .value;
}

/**
 * A list has no page meant for framing: its card is a quote linking to the list, as a consumer that
 * strips iframes would show it anyway.
 */
export function listCardMarkup(listUrl: string, title: string, summary: string): string {
  return html`<blockquote class="booklink-list"><p><a href="${safeUrl(listUrl) ?? '#'}">${title}</a></p><p>${summary}</p></blockquote>`
    .value;
}
