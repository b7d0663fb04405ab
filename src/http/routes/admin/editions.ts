import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Integer, Nullable } from '../../validation.js';
import { submitBookForm } from './book-form.js';
import { type AdminRouteOptions, IdParams } from './context.js';
import { formOptionsOn } from './submit-form.js';

/** SPEC 2.4 "book link edition", "book unlink edition", "book set canonical". */
/** The other edition by ISBN, page address, slug or id (see `AdminEditions.link`). */
const LinkBody = Type.Object({ target_book_id: Type.String({ minLength: 1, maxLength: 500 }) });
const UnlinkBody = Type.Object({ target_book_id: Nullable(Integer()) });
const CanonicalBody = Type.Object({
  new_canonical_id: Nullable(Integer()),
});

export const editionRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { services }) => {
  const editions = services.admin.editions;
  const done = (book: { id: number }) => `/admin/books/${book.id}?notice=saved#editions`;

  app.post('/admin/books/:id/editions/link', formOptionsOn(IdParams, LinkBody), async (request, reply) =>
    submitBookForm(services, request, reply, {
      form: 'edition',
      refill: true,
      run: (actor, book, body) => editions.link(actor, book, body.target_book_id),
      done,
    }),
  );

  app.post('/admin/books/:id/editions/unlink', formOptionsOn(IdParams, UnlinkBody), async (request, reply) =>
    submitBookForm(services, request, reply, {
      form: 'edition',
      refill: false,
      run: (actor, book, body) => editions.unlink(actor, book, body.target_book_id ?? null),
      done,
    }),
  );

  app.post(
    '/admin/books/:id/editions/canonical',
    formOptionsOn(IdParams, CanonicalBody),
    async (request, reply) =>
      submitBookForm(services, request, reply, {
        form: 'edition',
        refill: false,
        run: (actor, book, body) => editions.setCanonical(actor, book, body.new_canonical_id ?? null),
        done,
      }),
  );
};
