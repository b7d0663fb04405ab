import { Type } from 'typebox';
import { ok } from '../../../services/admin/commands.js';
import { Integer } from '../../validation.js';
import { renderAccessCodes } from '../../views/admin/access-codes.js';
import { type AdminRoutes, areaPage, IdParams, idParam, seeOther } from './context.js';
import { BLANK_FORM, formOptions, formOptionsOn, nothing, submitForm } from './submit-form.js';

/** SPEC 2.4 "access code create", "access code update" and "access code add/remove destination". */
const CreateBody = Type.Object({
  display_name: Type.String({ default: '', maxLength: 200 }),
  slug: Type.String({ default: '', maxLength: 100, pattern: '^$|^[a-z0-9][a-z0-9-]*$' }),
  description: Type.String({ default: '', maxLength: 2000 }),
  cookie_ttl_hours: Integer({ default: 24, minimum: 1, maximum: 8760 }),
  is_active: Type.Boolean({ default: true }),
});
const UpdateBody = Type.Object({
  display_name: Type.String({ default: '', maxLength: 200 }),
  description: Type.String({ default: '', maxLength: 2000 }),
  cookie_ttl_hours: Integer({ default: 24, minimum: 1, maximum: 8760 }),
  is_active: Type.Boolean({ default: true }),
});
const DestinationBody = Type.Object({ destination_id: Integer({ default: 0 }) });

const inputOf = (body: {
  display_name: string;
  description: string;
  cookie_ttl_hours: number;
  is_active: boolean;
}) => ({
  displayName: body.display_name,
  description: body.description,
  cookieTtlHours: body.cookie_ttl_hours,
  isActive: body.is_active,
});

/** Access codes: patron links that unlock non-public destinations (a library's catalogue). */
export const accessCodeRoutes: AdminRoutes = async (app, { services }) => {
  const codes = services.admin.accessCodes;

  const page = areaPage(async () => ({ overview: await codes.overview() }), BLANK_FORM, renderAccessCodes);

  app.get('/admin/access-codes', { schema: { hide: true } }, async (request, reply) => page(request, reply));

  app.post('/admin/access-codes', formOptions(CreateBody), async (request, reply) =>
    submitForm(request, reply, {
      load: nothing,
      run: (actor, _new, body) => {
        const { displayName, description, cookieTtlHours, isActive } = inputOf(body);
        const input = { displayName, slug: body.slug, description, cookieTtlHours, isActive };
        return codes.create(actor, input);
      },
      show: (_new, failed) => page(request, reply, failed, 422),
      done: () => '/admin/access-codes?notice=created',
    }),
  );

  app.post('/admin/access-codes/:id', formOptionsOn(IdParams, UpdateBody), async (request, reply) =>
    submitForm(request, reply, {
      load: async () => idParam(request),
      run: async (actor, id, body) => ok(await codes.update(actor, id, inputOf(body))),
      show: (_id, failed) => page(request, reply, failed, 422),
      done: () => '/admin/access-codes?notice=saved',
    }),
  );

  for (const action of ['add', 'remove'] as const) {
    const path =
      action === 'add'
        ? '/admin/access-codes/:id/destinations'
        : '/admin/access-codes/:id/destinations/remove';
    app.post(path, formOptionsOn(IdParams, DestinationBody), async (request, reply) => {
      const id = idParam(request);
      const destinationId = request.body.destination_id;
      if (!request.validationError && destinationId > 0)
        await codes.changeDestination(request.adminActor, id, action, destinationId);
      return seeOther(reply, `/admin/access-codes?notice=saved#code-${id}`);
    });
  }
};
