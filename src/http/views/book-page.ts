import { DEFAULT_BRAND } from '../../domain/brand.js';
import type { Brand } from '../../services/brand.js';
import { t } from '../i18n/context.js';
import { coverFigure, descriptionSection, editionsSection, factsList, shareBox } from './book-details.js';
import { formatJumps } from './book-jumps.js';
import { renderDestinations } from './book-links.js';
import { bookDocumentTitle, bookJsonLd, bookMetaDescription, bookSocialTags } from './book-meta.js';
import { favouritePanel, shareExtras } from './book-share.js';
import { authorLinks, seriesLine } from './book-shelves.js';
import { html, type SafeHtml, safeUrl } from './html.js';
import { renderLayout } from './layout.js';
import type { BookPageModel, PageTemplate } from './models.js';
import { oembedDiscoveryLink } from './oembed.js';
import { readerTools } from './saved-page.js';

export interface BookPageOptions {
  brand?: Brand;
}

function rootAttributes(model: BookPageModel): SafeHtml {
  return html`id="main" class="book book--${model.template}" data-book-id="${model.book.id}" data-book-slug="${model.book.slug}" data-template="${model.template}"`;
}

function titleBlock(model: BookPageModel, jump: boolean): SafeHtml {
  const { book } = model;
  const hasLinks = model.groups.some((group) => group.links.length > 0);
  return html`<div class="heading">
    <h1 class="title">${book.title}</h1>
    ${book.subtitle && html`<p class="subtitle">${book.subtitle}</p>`}
    ${authorLinks(model)}
    ${seriesLine(model)}
    ${jump && hasLinks && html`<a class="jump" href="#where-title">${t('book.where')} <span aria-hidden="true">↓</span></a>`}
    ${jump && formatJumps(model)}
  </div>`;
}

/**
 * Default and compact share one structure; compact drops the description and is styled denser. The
 * share card follows the hero (beside it on a wide screen, web/styles.css), the stores span the width.
 */
function fullBody(model: BookPageModel, withDescription: boolean): SafeHtml {
  return html`<main ${rootAttributes(model)}>
  <article class="hero">
    ${coverFigure(model.book)}
    <div class="hero__body">
      ${titleBlock(model, true)}
      ${factsList(model.book)}
      ${readerTools(model.book)}
      ${withDescription && descriptionSection(model.book)}
    </div>
  </article>
  ${shareBox(model, shareExtras(model))}
  ${renderDestinations(model.groups, model.highlight, model.country ?? null)}
  <div class="book__more">
    ${favouritePanel(model)}
    ${editionsSection(model)}
  </div>
</main>`;
}

/** Card: one small self-contained box, the look of an embed; the full page is one link away. */
function cardBody(model: BookPageModel, siteName: string): SafeHtml {
  return html`<main ${rootAttributes(model)}>
  <article class="card">
    <div class="card__head">
      ${coverFigure(model.book)}
      ${titleBlock(model, false)}
    </div>
    ${renderDestinations(model.groups, model.highlight, model.country ?? null)}
    <p class="card__foot"><a href="${safeUrl(model.canonicalUrl) ?? '#'}">${t('book.cardFoot', { site: siteName })}</a></p>
  </article>
</main>`;
}

function body(model: BookPageModel, template: PageTemplate, siteName: string): SafeHtml {
  switch (template) {
    case 'compact':
      return fullBody(model, false);
    case 'card':
      return cardBody(model, siteName);
    default:
      return fullBody(model, true);
  }
}

/** A complete HTML document. The canonical link always names `/book/{slug}`, also when served at `/b/`. */
export function renderBookPage(model: BookPageModel, options: BookPageOptions = {}): string {
  const brand = options.brand ?? DEFAULT_BRAND;
  const siteName = brand.siteName;
  const title = bookDocumentTitle(model, siteName);
  return renderLayout({
    title,
    description: bookMetaDescription(model),
    canonicalUrl: model.canonicalUrl,
    meta: bookSocialTags(model, siteName),
    // The canonical URL also on `/b/{slug}`: both are one cached page, and name the same book.
    links: [oembedDiscoveryLink(model.baseUrl, model.canonicalUrl, title)],
    jsonLd: bookJsonLd(model),
    scripts: ['cover.js', 'book.js', 'saved.js', 'lists.js'],
    bodyClass: `page-book page-book--${model.template}`,
    chrome: model.template !== 'card',
    brand,
    body: body(model, model.template, siteName),
  });
}
