import { Type } from 'typebox';
import { Integer } from '../../validation.js';
import { bookPageForms } from './book-form.js';
import type { AdminRoutes } from './context.js';

const text = (max: number) => Type.String({ default: '', maxLength: max });
const int = Integer({ default: 0 });

/** SPEC 2.4 "book add destination", with its defaults. */
const AddLinkBody = Type.Object({
  destination_id: int,
  url: text(2000),
  label: text(100),
  tagline: text(200),
  is_featured: Type.Boolean({ default: true }),
  active_from: text(40),
  active_until: text(40),
});
const RemoveLinkBody = Type.Object({ link_id: int });
const OverrideBody = Type.Object({ retailer_key: text(100), override_url: text(2000), notes: text(500) });
const DeleteOverrideBody = Type.Object({ retailer_key: text(100) });
const PinBody = Type.Object({ query: text(500), notes: text(500) });
const DeletePinBody = Type.Object({ pin_id: int });

/** A book's curated links, retailer overrides and search pins. */
export const bookLinkRoutes: AdminRoutes = async (app, { services }) => {
  const { books, links, pins } = services.admin;
  const page = bookPageForms(app, services);

  page.form('/admin/books/:id/links', AddLinkBody, {
    form: 'link',
    run: (actor, book, body) => links.add(actor, book, body),
    done: (book) => `/admin/books/${book.id}?notice=created#links`,
  });
  page.remove('/admin/books/:id/links/remove', RemoveLinkBody, 'links', (actor, book, body) =>
    links.remove(actor, body.link_id, { bookId: book.id }),
  );

  page.form('/admin/books/:id/overrides', OverrideBody, {
    form: 'override',
    run: (actor, book, body) => books.setOverride(actor, book, body),
    done: (book) => `/admin/books/${book.id}?notice=saved#overrides`,
  });
  page.remove('/admin/books/:id/overrides/delete', DeleteOverrideBody, 'overrides', (actor, book, body) =>
    books.removeOverride(actor, book, body.retailer_key),
  );

  page.form('/admin/books/:id/pins', PinBody, {
    form: 'pin',
    run: (actor, book, body) => pins.pinBook(actor, book, body.query, body.notes),
    done: (book) => `/admin/books/${book.id}?notice=created#pins`,
  });
  page.remove('/admin/books/:id/pins/delete', DeletePinBody, 'pins', (actor, _book, body) =>
    pins.remove(actor, body.pin_id),
  );
};
