import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { CommandResult } from '../../../services/admin/commands.js';
import type { PartnerInput } from '../../../services/admin/partners.js';
import { HttpError } from '../../errors.js';
import { Integer } from '../../validation.js';
import { type PartnerFormState, renderPartner, renderPartners } from '../../views/admin/partners.js';
import {
  ADMINS_ONLY,
  type AdminPage,
  type AdminRoutes,
  seeOther,
  sendAdminPage,
  sendCsv,
} from './context.js';
import { formOptions, formOptionsOn, nothing, submitForm } from './submit-form.js';

const PartnerBody = Type.Object({
  name: Type.String({ default: '', maxLength: 200 }),
  contact: Type.String({ default: '', maxLength: 500 }),
  is_active: Type.Boolean({ default: true }),
  api_key_id: Type.Optional(Integer({ minimum: 1 })),
});
const CreateBody = Type.Object({
  id: Type.String({ default: '', maxLength: 50 }),
  ...PartnerBody.properties,
});
const TagBody = Type.Object({
  destination_slug: Type.String({ default: '', maxLength: 100 }),
  country: Type.String({ default: '', maxLength: 2 }),
  tag: Type.String({ default: '', maxLength: 100 }),
});
const RemoveTagBody = Type.Object({
  destination_slug: Type.String({ default: '', maxLength: 100 }),
  country: Type.String({ default: '', maxLength: 2 }),
});
const PartnerParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 50 }) });
const Days = Type.Object({ days: Integer({ minimum: 1, maximum: 366, default: 30 }) });

const blank: PartnerFormState = { values: { is_active: true }, errors: {} };
const inputOf = (body: {
  name: string;
  contact: string;
  is_active: boolean;
  api_key_id?: number;
}): PartnerInput => ({
  name: body.name,
  contact: body.contact,
  isActive: body.is_active,
  apiKeyId: body.api_key_id ?? null,
});

/** A command on a partner that is not there is a 404, not a form error. */
function found<T>(result: CommandResult<T> | null): CommandResult<T> {
  if (!result) throw new HttpError(404, 'not_found', 'There is no partner with this id.');
  return result;
}

/** Partners and their affiliate tags (admins only: tags decide who is paid); every change is audited. */
export const partnerRoutes: AdminRoutes = async (app, { services }) => {
  const partners = services.admin.partners;
  const config = ADMINS_ONLY;

  const listPage: AdminPage<PartnerFormState> = async (request, reply, form = blank, status = 200) =>
    sendAdminPage(request, reply, renderPartners, { overview: await partners.overview(), form }, status);

  const detailPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    forms: { edit?: PartnerFormState; tag?: PartnerFormState } = {},
    status = 200,
  ) => {
    const days = (request.query as { days?: number } | undefined)?.days ?? 30;
    const detail = await partners.detail(id, days);
    if (!detail) throw new HttpError(404, 'not_found', 'There is no partner with this id.');
    return sendAdminPage(request, reply, renderPartner, { detail, ...forms }, status);
  };

  app.get('/admin/partners', { config, schema: { hide: true } }, async (request, reply) =>
    listPage(request, reply),
  );

  app.post('/admin/partners', formOptions(CreateBody, config), async (request, reply) =>
    submitForm(request, reply, {
      load: nothing,
      run: (actor, _new, body) => partners.create(actor, body.id, inputOf(body)),
      show: (_new, failed) => listPage(request, reply, failed, 422),
      done: (_new, id) => `/admin/partners/${encodeURIComponent(id)}?notice=created`,
    }),
  );

  app.get(
    '/admin/partners/:id',
    { config, schema: { hide: true, params: PartnerParams, querystring: Days } },
    async (request, reply) => detailPage(request, reply, request.params.id),
  );

  app.get(
    '/admin/partners/:id/clicks.csv',
    { config, schema: { hide: true, params: PartnerParams, querystring: Days } },
    async (request, reply) => {
      const { id } = request.params;
      const csv = await partners.csv(id, request.query.days);
      if (csv === null) throw new HttpError(404, 'not_found', 'There is no partner with this id.');
      return sendCsv(reply, `partner-${id}-clicks-${request.query.days}d.csv`, csv);
    },
  );

  app.post('/admin/partners/:id', formOptionsOn(PartnerParams, PartnerBody, config), async (request, reply) =>
    submitForm(request, reply, {
      load: async () => request.params.id,
      run: async (actor, id, body) => found(await partners.edit(actor, id, inputOf(body))),
      show: (id, failed) => detailPage(request, reply, id, { edit: failed }, 422),
      done: (id) => `/admin/partners/${encodeURIComponent(id)}?notice=saved`,
    }),
  );

  app.post(
    '/admin/partners/:id/tags',
    formOptionsOn(PartnerParams, TagBody, config),
    async (request, reply) =>
      submitForm(request, reply, {
        load: async () => request.params.id,
        run: async (actor, id, body) => {
          const tag = { destinationSlug: body.destination_slug, country: body.country, tag: body.tag };
          return found(await partners.setTag(actor, id, tag));
        },
        show: (id, failed) => detailPage(request, reply, id, { tag: failed }, 422),
        done: (id) => `/admin/partners/${encodeURIComponent(id)}?notice=saved`,
      }),
  );

  app.post(
    '/admin/partners/:id/tags/remove',
    { config, schema: { hide: true, params: PartnerParams, body: RemoveTagBody } },
    async (request, reply) => {
      const { id } = request.params;
      await partners.removeTag(request.adminActor, id, request.body.destination_slug, request.body.country);
      return seeOther(reply, `/admin/partners/${encodeURIComponent(id)}?notice=deleted`);
    },
  );
};
