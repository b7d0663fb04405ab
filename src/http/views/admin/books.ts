import type { Book } from '../../../services/admin/books.js';
import { html } from '../html.js';
import { type AdminViewer, renderAdminPage } from './layout.js';

export interface BookListModel {
  /** What was searched ('' lists the newest books). */
  query: string;
  books: readonly Book[];
}

export function renderBookList(viewer: AdminViewer, { query, books }: BookListModel): string {
  const body = html`<div class="page-head"><h1>Books</h1></div>
<form class="admin-search" method="get" action="/admin/books" role="search">
  <input type="search" name="q" value="${query}" placeholder="Title, author, ISBN or slug" aria-label="Find a book" maxlength="500">
  <button type="submit" class="button">Find</button>
</form>
${
  books.length === 0
    ? html`<p class="muted">No book matches. Books are created when a reader first follows a link to them.</p>`
    : html`<table class="data data--books">
  <thead><tr><th>Title</th><th>Authors</th><th>ISBN</th><th>Slug</th></tr></thead>
  <tbody>${books.map(
    (book) => html`<tr>
    <td><a href="/admin/books/${book.id}">${book.title}</a></td>
    <td>${book.authors.join(', ')}</td>
    <td class="mono">${book.isbn13 ?? ''}</td>
    <td class="mono">${book.slug}</td>
  </tr>`,
  )}</tbody>
</table>`
}`;
  return renderAdminPage({ title: 'Books', viewer, section: 'books', body });
}
