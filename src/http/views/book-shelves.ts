import { nameSlug } from '../../domain/series.js';
import { html, type SafeHtml } from './html.js';
import type { BookPageModel } from './models.js';

/** The book page's ways out to its author and series pages (`/author/{slug}`, `/series/{slug}`). */

export function authorLinks(model: BookPageModel): SafeHtml {
  const { authors } = model.book;
  if (authors.length === 0) return html``;
  const names = authors.map((name, i) => {
    const sep = i === 0 ? '' : i === authors.length - 1 ? ' and ' : ', ';
    const slug = nameSlug(name);
    return slug
      ? html`${sep}<a class="author" href="/author/${encodeURIComponent(slug)}">${name}</a>`
      : html`${sep}<span class="author">${name}</span>`;
  });
  return html`<p class="authors">by ${names}</p>`;
}

export function seriesLine(model: BookPageModel): SafeHtml {
  const { series } = model;
  if (!series) return html``;
  const href = `/series/${encodeURIComponent(series.slug)}`;
  return html`<p class="series-line">${series.number === null ? 'Part of ' : `Book ${series.number} of `}<a href="${href}">${series.name}</a></p>`;
}
