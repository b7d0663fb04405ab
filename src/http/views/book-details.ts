import { hyphenateIsbn } from '../../domain/isbn.js';
import { t, tHtml } from '../i18n/context.js';
import {
  displayDate,
  displayFormat,
  displayLanguage,
  joinNames,
  nameList,
  paletteIndex,
  yearOf,
} from './book-format.js';
import { html, type SafeHtml, safeUrl } from './html.js';
import type { BookPageModel, BookView, EditionView } from './models.js';

/** The parts of a book page that describe the book itself. */

const PLACEHOLDER_PALETTES = 6;

/**
 * The cover and its placeholder are both in the markup: CSS shows the placeholder when the figure has
 * `cover--missing` (no URL, or web/cover.js saw the image fail), so it works without JavaScript.
 */
export function coverFigure(book: BookView): SafeHtml {
  const src = safeUrl(book.coverUrl);
  const palette = `cover--ph${paletteIndex(book.title, PLACEHOLDER_PALETTES)}`;
  const isbn = book.isbn13 ?? book.isbn10;
  return html`<figure class="cover ${palette}${src ? '' : ' cover--missing'}" data-cover data-isbn="${isbn ?? ''}" data-slug="${book.slug}" data-title="${book.title}" data-cover-alt="${t('book.coverAlt', { title: book.title })}">
  ${src && html`<img class="cover__img" src="${src}" alt="${t('book.coverAlt', { title: book.title })}" width="240" height="360" fetchpriority="high" decoding="async">`}
  <div class="cover__placeholder" aria-hidden="true">
    <span class="cover__ph-title">${book.title}</span>
    ${book.authors.length > 0 && html`<span class="cover__ph-author">${joinNames(book.authors)}</span>`}
  </div>
</figure>`;
}

export function authorsLine(book: BookView): SafeHtml {
  if (book.authors.length === 0) return html``;
  const names = book.authors.map((name) => html`<span class="author">${name}</span>`);
  return html`<p class="authors">${tHtml('book.by', { names: nameList(names) })}</p>`;
}

function fact(term: string, value: SafeHtml | string | null): SafeHtml {
  return value === null ? html`` : html`<div class="fact"><dt>${term}</dt><dd>${value}</dd></div>`;
}

export function factsList(book: BookView): SafeHtml {
  const date = book.publishedDate;
  return html`<dl class="facts">
  ${fact(t('book.fact.published'), date ? html`<time datetime="${date}">${displayDate(date)}</time>` : null)}
  ${fact(t('book.fact.publisher'), book.publisher)}
  ${fact(t('book.fact.format'), book.format ? displayFormat(book.format) : null)}
  ${fact(t('book.fact.pages'), book.pages ? t('common.number', { value: book.pages }) : null)}
  ${fact(t('book.fact.language'), book.language ? displayLanguage(book.language) : null)}
  ${fact('ISBN-13', book.isbn13 ? html`<span class="isbn">${hyphenateIsbn(book.isbn13)}</span>` : null)}
  ${fact('ISBN-10', book.isbn10 ? html`<span class="isbn">${book.isbn10}</span>` : null)}
</dl>`;
}

const LONG_DESCRIPTION = 600;
const LEAD_LENGTH = 240;

/** Splits a long description into a lead and the rest; a single huge paragraph splits at a sentence. */
export function splitDescription(text: string): { lead: string[]; rest: string[] } {
  const paragraphs = text
    .split(/\r?\n\s*\r?\n|\r?\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (text.length <= LONG_DESCRIPTION) return { lead: paragraphs, rest: [] };
  const lead: string[] = [];
  let length = 0;
  while (paragraphs.length > 0 && length < LEAD_LENGTH) {
    const next = paragraphs.shift() ?? '';
    const sentenceEnd = next.length > LEAD_LENGTH * 1.5 ? next.indexOf('. ', LEAD_LENGTH - length) : -1;
    if (sentenceEnd > 0) {
      lead.push(next.slice(0, sentenceEnd + 1));
      paragraphs.unshift(next.slice(sentenceEnd + 2));
      break;
    }
    lead.push(next);
    length += next.length;
  }
  return { lead, rest: paragraphs };
}

/** Long text stays collapsed behind a native `<details>`: no script needed to expand it. */
export function descriptionSection(book: BookView): SafeHtml {
  if (!book.description) return html``;
  const { lead, rest } = splitDescription(book.description);
  return html`<section class="description" aria-labelledby="about-title">
  <h2 id="about-title">${t('book.about')}</h2>
  ${lead.map((p) => html`<p>${p}</p>`)}
  ${rest.length > 0 && html`<details class="more"><summary>${t('book.readMore')}</summary>${rest.map((p) => html`<p>${p}</p>`)}</details>`}
</section>`;
}

function editionItem(edition: EditionView, currentTitle: string): SafeHtml {
  const meta = [yearOf(edition.publishedDate), edition.isbn13].filter(Boolean).join(' · ');
  const body = html`<span class="edition__format">${edition.format ? displayFormat(edition.format) : t('book.edition')}</span>
    ${edition.title !== currentTitle && html`<span class="edition__title">${edition.title}</span>`}
    ${meta && html`<span class="edition__meta">${meta}</span>`}
    ${edition.canonical && html`<span class="edition__canonical">${t('book.recommended')}</span>`}`;
  return edition.current
    ? html`<li><span class="edition edition--current" aria-current="page">${body}<span class="edition__this">${t('book.thisEdition')}</span></span></li>`
    : html`<li><a class="edition" href="/book/${encodeURIComponent(edition.slug)}">${body}</a></li>`;
}

export function editionsSection(model: BookPageModel): SafeHtml {
  if (!model.editions.some((edition) => !edition.current)) return html``;
  return html`<section class="editions" aria-labelledby="editions-title">
  <h2 id="editions-title">${t('book.editions')}</h2>
  <ul class="edition-list">${model.editions.map((edition) => editionItem(edition, model.book.title))}</ul>
</section>`;
}

/**
 * The share card: the link to copy and, in `extras`, its QR code, together near the top of the page.
 * The copy button starts hidden: it needs web/book.js, and a dead button is worse than none.
 */
export function shareBox(model: BookPageModel, extras: SafeHtml): SafeHtml {
  return html`<div class="share">
  <label class="share__label" for="share-url">${t('book.share')}</label>
  <div class="share__row">
    <input class="share__url" id="share-url" type="text" value="${model.shortUrl}" readonly>
    <button class="button share__copy" type="button" data-copy="${model.shortUrl}" data-copied="${t('client.copied')}" data-copied-status="${t('client.linkCopied')}" data-copy-hint="${t('client.copyHint')}" hidden>${t('book.copyLink')}</button>
  </div>
  <p class="share__canonical">${tHtml('book.permanent', { link: html`<a href="${safeUrl(model.canonicalUrl) ?? '#'}">${model.canonicalUrl}</a>` })}</p>
  <p class="share__status" role="status" aria-live="polite"></p>
  ${extras}
</div>`;
}
