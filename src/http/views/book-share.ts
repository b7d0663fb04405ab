import { FORMATS, formatOfGroup, type ReadingFormat } from '../../domain/favourites.js';
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
  <img class="share-more__qr" src="${qr}.svg" width="132" height="132" alt="QR code of the link to ${model.book.title}" loading="lazy" decoding="async">
  <div class="share-more__actions">
    <button class="button button--quiet share-more__native" type="button" data-share hidden>Share…</button>
    <a class="share-more__download" href="${qr}.png" download="${model.book.slug}-qr.png">Download the QR code (PNG)</a>
    <a class="share-more__embed" href="${embedBuilderPath(model.book.slug)}">Embed this book on your site</a>
  </div>
</div>`;
}

const FORMAT_NAMES: Readonly<Record<ReadingFormat, string>> = {
  print: 'Print books',
  ebook: 'Ebooks',
  audiobook: 'Audiobooks',
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
  return html`<section class="fav" data-fav aria-labelledby="fav-title" hidden>
  <h2 class="fav__title" id="fav-title">Always open books in your favourite store</h2>
  <p class="fav__intro">Your choice stays in this browser only (a cookie). Short links to books then open that store directly; this page lists it first.</p>
  <form class="fav__form" data-fav-form>
    ${formats.map(
      ({ format, stores }) => html`<div class="fav__field">
      <label for="fav-${format}">${FORMAT_NAMES[format]}</label>
      <select id="fav-${format}" name="${format}">
        <option value="">Show me all the stores</option>
        ${stores.map((store) => html`<option value="${store.slug}">${store.name}</option>`)}
      </select>
    </div>`,
    )}
    <div class="fav__actions">
      <button class="button" type="submit">Save my stores</button>
      <button class="button button--quiet" type="button" data-fav-forget>Forget my stores</button>
    </div>
  </form>
  <p class="fav__status" role="status" aria-live="polite"></p>
  <p class="fav__full">This page, whatever you chose: <a href="${fullUrl}">${fullUrl}</a></p>
</section>`;
}
