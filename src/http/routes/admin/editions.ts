import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  findEditionTarget,
  linkEdition,
  setCanonicalEdition,
  unlinkEdition,
} from '../../../services/admin/editions.js';
import { bookOr404, showFailedForm } from './books.js';
import { type AdminRouteOptions, commandContext, IdParams, seeOther } from './context.js';
import { schemaErrors, submitted } from './form-errors.js';

/** SPEC 2.4 "book link edition", "book unlink edition", "book set canonical". */
/** The other edition by ISBN, page address, slug or id (see `findEditionTarget`). */
const LinkBody = Type.Object({ target_book_id: Type.String({ minLength: 1, maxLength: 500 }) });
const UnlinkBody = Type.Object({ target_book_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])) });
const CanonicalBody = Type.Object({
  new_canonical_id: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
});

export const editionRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { services }) => {
  const options = <T>(body: T) => ({
    attachValidation: true,
    schema: { hide: true, params: IdParams, body },
  });
  const done = (id: number) => `/admin/books/${id}?notice=saved#editions`;

  app.post('/admin/books/:id/editions/link', options(LinkBody), async (request, reply) => {
    const book = await bookOr404(services, request);
    const values = submitted(request);
    const errors = schemaErrors(request);
    if (errors) return showFailedForm(services, request, reply, book, { form: 'edition', values, errors });
    const ctx = commandContext(request, services);
    const target = await findEditionTarget(ctx, request.body.target_book_id);
    if (!target)
      return showFailedForm(services, request, reply, book, {
        form: 'edition',
        values,
        errors: { target_book_id: 'No book has this ISBN, address or id.' },
      });
    const result = await linkEdition(ctx, book, target.id);
    if (!result.ok)
      return showFailedForm(services, request, reply, book, {
        form: 'edition',
        values,
        errors: result.errors,
      });
    return seeOther(reply, done(book.id));
  });

  app.post('/admin/books/:id/editions/unlink', options(UnlinkBody), async (request, reply) => {
    const book = await bookOr404(services, request);
    const errors = schemaErrors(request);
    const result = errors
      ? { ok: false as const, errors }
      : await unlinkEdition(commandContext(request, services), book, request.body.target_book_id ?? null);
    if (!result.ok)
      return showFailedForm(services, request, reply, book, {
        form: 'edition',
        values: {},
        errors: result.errors,
      });
    return seeOther(reply, done(book.id));
  });

  app.post('/admin/books/:id/editions/canonical', options(CanonicalBody), async (request, reply) => {
    const book = await bookOr404(services, request);
    const errors = schemaErrors(request);
    const result = errors
      ? { ok: false as const, errors }
      : await setCanonicalEdition(
          commandContext(request, services),
          book,
          request.body.new_canonical_id ?? null,
        );
    if (!result.ok)
      return showFailedForm(services, request, reply, book, {
        form: 'edition',
        values: {},
        errors: result.errors,
      });
    return seeOther(reply, done(book.id));
  });
};
