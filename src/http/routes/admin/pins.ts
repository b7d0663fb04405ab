import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { createPin, removePin, resolveBookRef } from '../../../services/admin/pins.js';
import { listPins } from '../../../store/admin-pins.js';
import { Integer } from '../../validation.js';
import type { FormErrors, FormValues } from '../../views/admin/form.js';
import { renderPins } from '../../views/admin/pins.js';
import {
  type AdminRouteOptions,
  commandContext,
  dbOf,
  noticeOf,
  seeOther,
  sendPage,
  viewerOf,
} from './context.js';
import { schemaErrors, submitted } from './form-errors.js';

/** SPEC 2.4 "search pin create" and "book delete search pin". */
const PinBody = Type.Object({
  query: Type.String({ default: '', maxLength: 500 }),
  book_ref: Type.String({ default: '', maxLength: 2000 }),
  notes: Type.String({ default: '', maxLength: 500 }),
});
const DeleteBody = Type.Object({ pin_id: Integer({ default: 0 }) });

export const pinRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { services }) => {
  const db = dbOf(services);
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    values: FormValues,
    errors: FormErrors,
    status = 200,
  ) =>
    sendPage(
      reply,
      renderPins(viewerOf(request), await listPins(db), values, errors, noticeOf(request)),
      status,
    );

  app.get(
    '/admin/pins',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ query: Type.Optional(Type.String({ maxLength: 500 })) }),
      },
    },
    async (request, reply) => page(request, reply, { query: request.query.query ?? '' }, {}),
  );

  app.post(
    '/admin/pins',
    { attachValidation: true, schema: { hide: true, body: PinBody } },
    async (request, reply) => {
      const values = submitted(request);
      const errors = schemaErrors(request);
      if (errors) return page(request, reply, values, errors, 422);
      const ctx = commandContext(request, services);
      const book = await resolveBookRef(ctx, request.body.book_ref);
      if (!book)
        return page(
          request,
          reply,
          values,
          { book_ref: 'No saved book has this slug, ISBN or address.' },
          422,
        );
      const result = await createPin(ctx, book, request.body.query, request.body.notes);
      if (!result.ok) return page(request, reply, values, result.errors, 422);
      return seeOther(reply, '/admin/pins?notice=created');
    },
  );

  app.post(
    '/admin/pins/delete',
    { attachValidation: true, schema: { hide: true, body: DeleteBody } },
    async (request, reply) => {
      if (!request.validationError) await removePin(commandContext(request, services), request.body.pin_id);
      return seeOther(reply, '/admin/pins?notice=deleted');
    },
  );
};
