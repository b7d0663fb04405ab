import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { Integer } from '../../validation.js';
import { submitBookForm } from './book-form.js';
import { bookOr404 } from './books.js';
import { type AdminRouteOptions, IdParams, seeOther } from './context.js';
import { formOptionsOn } from './submit-form.js';

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
export const bookLinkRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { services }) => {
  const { books, pins } = services.admin;

  app.post('/admin/books/:id/links', formOptionsOn(IdParams, AddLinkBody), async (request, reply) =>
    submitBookForm(services, request, reply, {
      form: 'link',
      refill: true,
      run: (actor, book, body) => books.addLink(actor, book, body),
      done: (book) => `/admin/books/${book.id}?notice=created#links`,
    }),
  );

  app.post(
    '/admin/books/:id/links/remove',
    formOptionsOn(IdParams, RemoveLinkBody),
    async (request, reply) => {
      const book = await bookOr404(services, request);
      if (!request.validationError)
        await books.removeLink(request.adminActor, request.body.link_id, { bookId: book.id });
      return seeOther(reply, `/admin/books/${book.id}?notice=deleted#links`);
    },
  );

  app.post('/admin/books/:id/overrides', formOptionsOn(IdParams, OverrideBody), async (request, reply) =>
    submitBookForm(services, request, reply, {
      form: 'override',
      refill: true,
      run: (actor, book, body) => books.setOverride(actor, book, body),
      done: (book) => `/admin/books/${book.id}?notice=saved#overrides`,
    }),
  );

  app.post(
    '/admin/books/:id/overrides/delete',
    formOptionsOn(IdParams, DeleteOverrideBody),
    async (request, reply) => {
      const book = await bookOr404(services, request);
      if (!request.validationError)
        await books.removeOverride(request.adminActor, book, request.body.retailer_key);
      return seeOther(reply, `/admin/books/${book.id}?notice=deleted#overrides`);
    },
  );

  app.post('/admin/books/:id/pins', formOptionsOn(IdParams, PinBody), async (request, reply) =>
    submitBookForm(services, request, reply, {
      form: 'pin',
      refill: true,
      run: (actor, book, body) => pins.pinBook(actor, book, body.query, body.notes),
      done: (book) => `/admin/books/${book.id}?notice=created#pins`,
    }),
  );

  app.post('/admin/books/:id/pins/delete', formOptionsOn(IdParams, DeletePinBody), async (request, reply) => {
    const book = await bookOr404(services, request);
    if (!request.validationError) await pins.remove(request.adminActor, request.body.pin_id);
    return seeOther(reply, `/admin/books/${book.id}?notice=deleted#pins`);
  });
};
