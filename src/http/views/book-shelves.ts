import { nameSlug } from '../../domain/series.js';
import { tHtml } from '../i18n/context.js';
import { nameList } from './book-format.js';
import { html, type SafeHtml } from './html.js';
import type { BookPageModel } from './models.js';

/** The book page's ways out to its author and series pages (`/author/{slug}`, `/series/{slug}`). */

export function authorLinks(model: BookPageModel): SafeHtml {
  const { authors } = model.book;
  if (authors.length === 0) return html``;
  const names = authors.map((name) => {
    const slug = nameSlug(name);
    return slug
      ? html`<a class="author" href="/author/${encodeURIComponent(slug)}">${name}</a>`
      : html`<span class="author">${name}</span>`;
  });
  return html`<p class="authors">${tHtml('book.by', { names: nameList(names) })}</p>`;
}

export function seriesLine(model: BookPageModel): SafeHtml {
  const { series } = model;
  if (!series) return html``;
  const href = `/series/${encodeURIComponent(series.slug)}`;
  const link = html`<a href="${href}">${series.name}</a>`;
  return html`<p class="series-line">${
    series.number === null
      ? tHtml('book.seriesPart', { series: link })
      : tHtml('book.seriesNumber', { number: series.number, series: link })
  }</p>`;
}
