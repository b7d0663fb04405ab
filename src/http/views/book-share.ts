import { FORMATS, formatOfGroup, type ReadingFormat } from '../../domain/favourites.js';
import type { MessageKey } from '../i18n/catalogue.js';
import { t, tHtml } from '../i18n/context.js';
import { embedBuilderPath } from './book-embed.js';
import { html, type SafeHtml } from './html.js';
import type { BookPageModel } from './models.js';

/**
 * The share card's extras: the short link's QR code (SVG to show, PNG to download), the system share
 * sheet, which web/book.js reveals only where the browser has `navigator.share`, and the way to the
 * embed builder (a page for site owners, so the reader's page carries no builder).
 */
export function shareExtras(model: BookPageModel): SafeHtml {
  const qr = `/book/${encodeURIComponent(model.book.slug)}/qr`;
  return html`<div class="share-more" data-share-title="${model.book.title}" data-share-url="${model.shortUrl}">
  <img class="share-more__qr" src="${qr}.svg" width="132" height="132" alt="${t('book.qrAlt', { title: model.book.title })}" loading="lazy" decoding="async">
  <div class="share-more__actions">
    <button class="button button--quiet share-more__native" type="button" data-share hidden>${t('book.shareNative')}</button>
    <a class="share-more__download" href="${qr}.png" download="${model.book.slug}-qr.png">${t('book.qrDownload')}</a>
    <a class="share-more__embed" href="${embedBuilderPath(model.book.slug)}">${t('embedPanel.title')}</a>
  </div>
</div>`;
}

const FORMAT_NAMES: Readonly<Record<ReadingFormat, MessageKey>> = {
  print: 'fav.format.print',
  ebook: 'fav.format.ebook',
  audiobook: 'fav.format.audiobook',
};

function storesFor(model: BookPageModel, format: ReadingFormat): Array<{ slug: string; name: string }> {
  const seen = new Set<string>();
  const stores: Array<{ slug: string; name: string }> = [];
  for (const group of model.groups) {
    if (formatOfGroup(group.group) !== format) continue;
    for (const link of group.links) {
      if (seen.has(link.destinationSlug)) continue;
      seen.add(link.destinationSlug);
      stores.push({ slug: link.destinationSlug, name: link.name });
    }
  }
  return stores.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * "Always open this in <store>": one choice per format, kept only in a first-party cookie written by
 * web/favourites.js (nothing is sent to the server but the cookie itself). With a choice, this page
 * lists that store first and short links go straight to it; `?full=1` and "Forget" lead back here.
 */
export function favouritePanel(model: BookPageModel): SafeHtml {
  const formats = FORMATS.map((format) => ({ format, stores: storesFor(model, format) })).filter(
    (entry) => entry.stores.length > 0,
  );
  if (formats.length === 0) return html``;
  const fullUrl = `${model.canonicalUrl}?full=1`;
  return html`<section class="fav" data-fav aria-labelledby="fav-title" data-msg-current="${t('client.fav.current')}" data-msg-current-other="${t('client.fav.currentOther')}" data-msg-saved="${t('client.fav.saved')}" data-msg-none="${t('client.fav.none')}" data-msg-forgotten="${t('client.fav.forgotten')}" hidden>
  <h2 class="fav__title" id="fav-title">${t('fav.title')}</h2>
  <p class="fav__intro">${t('fav.intro')}</p>
  <form class="fav__form" data-fav-form>
    ${formats.map(
      ({ format, stores }) => html`<div class="fav__field">
      <label for="fav-${format}">${t(FORMAT_NAMES[format])}</label>
      <select id="fav-${format}" name="${format}">
        <option value="">${t('fav.all')}</option>
        ${stores.map((store) => html`<option value="${store.slug}">${store.name}</option>`)}
      </select>
    </div>`,
    )}
    <div class="fav__actions">
      <button class="button" type="submit">${t('fav.save')}</button>
      <button class="button button--quiet" type="button" data-fav-forget>${t('fav.forget')}</button>
    </div>
  </form>
  <p class="fav__status" role="status" aria-live="polite"></p>
  <p class="fav__full">${tHtml('fav.full', { link: html`<a href="${fullUrl}">${fullUrl}</a>` })}</p>
</section>`;
}
