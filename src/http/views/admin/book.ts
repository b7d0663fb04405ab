import { html, type SafeHtml, safeUrl } from '../html.js';
import { type BookPageModel, formState } from './book-model.js';
import { editionsSection, linksSection, overridesSection, pinsSection } from './book-sections.js';
import { bookFiguresSection } from './earnings.js';
import { field, formError, textarea } from './form.js';
import { type AdminViewer, csrfField, renderAdminPage } from './layout.js';
import { listsSection } from './lists-book.js';
import { offerReadsSection } from './offers.js';

function editForm(viewer: AdminViewer, model: BookPageModel): SafeHtml {
  const { book } = model;
  const { values, errors } = formState(model, 'edit', {
    title: book.title,
    authors: book.authors.join('\n'),
    isbn_13: book.isbn13 ?? '',
    cover_url: book.coverUrl ?? '',
    description: book.description ?? '',
  });
  return html`<section class="panel" id="edit" aria-labelledby="edit-title">
  <header class="panel__head"><h2 id="edit-title">Details</h2></header>
  ${formError(errors)}
  <form method="post" action="/admin/books/${book.id}/edit" class="admin-form">
    ${csrfField(viewer)}
    ${field('Title', 'title', values, errors, { required: true, maxlength: 500 })}
    ${field('ISBN-13', 'isbn_13', values, errors, { maxlength: 20 })}
    ${textarea('Authors (one per line)', 'authors', values, errors, 2)}
    ${field('Cover URL', 'cover_url', values, errors, { type: 'url', maxlength: 2000 })}
    ${textarea('Description', 'description', values, errors, 5)}
    <div class="form-actions"><button type="submit" class="button">Save details</button>
    <span class="muted">The slug <code>${book.slug}</code> never changes.</span></div>
  </form>
</section>`;
}

/** The cover the public page shows, or a note that there is none. */
function cover(model: BookPageModel): SafeHtml {
  const src = safeUrl(model.book.coverUrl);
  return src
    ? html`<img class="admin-cover" src="${src}" alt="Cover of ${model.book.title}" width="72" height="108" data-role="admin-cover">`
    : html`<div class="admin-cover admin-cover--missing" data-role="admin-cover"><span class="small muted">No cover</span></div>`;
}

export function renderBookAdmin(viewer: AdminViewer, model: BookPageModel): string {
  const { book } = model;
  const body = html`<div class="page-head">
  <div class="admin-title">${cover(model)}<div><p class="crumbs"><a href="/admin/books">Books</a></p>
  <h1>${book.title}</h1>
  <p class="muted">${book.authors.join(', ')}${book.isbn13 ? html` · <span class="mono">${book.isbn13}</span>` : ''}</p></div></div>
  <a class="button button--quiet" href="/book/${encodeURIComponent(book.slug)}" target="_blank" rel="noopener">Public page ↗</a>
</div>
<div class="book-admin">
  <div class="book-admin__main">
    ${editForm(viewer, model)}
    ${linksSection(viewer, model)}
    ${overridesSection(viewer, model)}
  </div>
  <div class="book-admin__side">
    ${model.figures && bookFiguresSection(model.figures)}
    ${pinsSection(viewer, model)}
    ${editionsSection(viewer, model)}
    ${listsSection(viewer, model)}
    ${offerReadsSection(model.offerReads)}
  </div>
</div>`;
  return renderAdminPage({ title: book.title, viewer, section: 'books', notice: model.notice ?? null, body });
}
