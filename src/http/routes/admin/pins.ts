import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Integer } from '../../validation.js';
import type { FormErrors, FormValues } from '../../views/admin/form.js';
import { renderPins } from '../../views/admin/pins.js';
import { type AdminRouteOptions, noticeOf, seeOther, sendPage } from './context.js';
import { formOptions, nothing, submitForm } from './submit-form.js';

/** SPEC 2.4 "search pin create" and "book delete search pin". */
const PinBody = Type.Object({
  query: Type.String({ default: '', maxLength: 500 }),
  book_ref: Type.String({ default: '', maxLength: 2000 }),
  notes: Type.String({ default: '', maxLength: 500 }),
});
const DeleteBody = Type.Object({ pin_id: Integer({ default: 0 }) });

export const pinRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { services }) => {
  const pins = services.admin.pins;
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    values: FormValues,
    errors: FormErrors,
    status = 200,
  ) =>
    sendPage(
      reply,
      renderPins(request.adminViewer, { pins: await pins.list(), values, errors, notice: noticeOf(request) }),
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

  app.post('/admin/pins', formOptions(PinBody), async (request, reply) =>
    submitForm(request, reply, {
      load: nothing,
      run: (actor, _new, body) => pins.pin(actor, body.book_ref, body.query, body.notes),
      show: (_new, failed) => page(request, reply, failed.values, failed.errors, 422),
      done: () => '/admin/pins?notice=created',
    }),
  );

  app.post('/admin/pins/delete', formOptions(DeleteBody), async (request, reply) => {
    if (!request.validationError) await pins.remove(request.adminActor, request.body.pin_id);
    return seeOther(reply, '/admin/pins?notice=deleted');
  });
};
