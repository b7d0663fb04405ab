import { Type } from 'typebox';
import { Integer } from '../../validation.js';
import { renderPins } from '../../views/admin/pins.js';
import { type AdminRoutes, areaPage, seeOther } from './context.js';
import { BLANK_FORM, formOptions, nothing, submitForm } from './submit-form.js';

/** SPEC 2.4 "search pin create" and "book delete search pin". */
const PinBody = Type.Object({
  query: Type.String({ default: '', maxLength: 500 }),
  book_ref: Type.String({ default: '', maxLength: 2000 }),
  notes: Type.String({ default: '', maxLength: 500 }),
});
const DeleteBody = Type.Object({ pin_id: Integer({ default: 0 }) });

export const pinRoutes: AdminRoutes = async (app, { services }) => {
  const pins = services.admin.pins;
  const page = areaPage(async () => ({ pins: await pins.list() }), BLANK_FORM, renderPins);

  app.get(
    '/admin/pins',
    {
      schema: {
        hide: true,
        querystring: Type.Object({ query: Type.Optional(Type.String({ maxLength: 500 })) }),
      },
    },
    async (request, reply) =>
      page(request, reply, { values: { query: request.query.query ?? '' }, errors: {} }),
  );

  app.post('/admin/pins', formOptions(PinBody), async (request, reply) =>
    submitForm(request, reply, {
      load: nothing,
      run: (actor, _new, body) => pins.pin(actor, body.book_ref, body.query, body.notes),
      show: (_new, failed) => page(request, reply, failed, 422),
      done: () => '/admin/pins?notice=created',
    }),
  );

  app.post('/admin/pins/delete', formOptions(DeleteBody), async (request, reply) => {
    if (!request.validationError) await pins.remove(request.adminActor, request.body.pin_id);
    return seeOther(reply, '/admin/pins?notice=deleted');
  });
};
