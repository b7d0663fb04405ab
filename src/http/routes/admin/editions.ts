import { Type } from 'typebox';
import { Integer, Nullable } from '../../validation.js';
import { bookPageForms } from './book-form.js';
import type { AdminRoutes } from './context.js';

/** SPEC 2.4 "book link edition", "book unlink edition", "book set canonical". */
/** The other edition by ISBN, page address, slug or id (see `AdminEditions.link`). */
const LinkBody = Type.Object({ target_book_id: Type.String({ minLength: 1, maxLength: 500 }) });
const UnlinkBody = Type.Object({ target_book_id: Nullable(Integer()) });
const CanonicalBody = Type.Object({
  new_canonical_id: Nullable(Integer()),
});

export const editionRoutes: AdminRoutes = async (app, { services }) => {
  const editions = services.admin.editions;
  const page = bookPageForms(app, services);
  const done = (book: { id: number }) => `/admin/books/${book.id}?notice=saved#editions`;

  page.form('/admin/books/:id/editions/link', LinkBody, {
    form: 'edition',
    run: (actor, book, body) => editions.link(actor, book, body.target_book_id),
    done,
  });
  page.form('/admin/books/:id/editions/unlink', UnlinkBody, {
    form: 'edition',
    refill: false,
    run: (actor, book, body) => editions.unlink(actor, book, body.target_book_id ?? null),
    done,
  });
  page.form('/admin/books/:id/editions/canonical', CanonicalBody, {
    form: 'edition',
    refill: false,
    run: (actor, book, body) => editions.setCanonical(actor, book, body.new_canonical_id ?? null),
    done,
  });
};
