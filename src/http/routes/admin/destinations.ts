import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Destination } from '../../../domain/links.js';
import { invalid } from '../../../services/admin/commands.js';
import { previewTemplate } from '../../../services/admin/destinations.js';
import {
  type DestinationPageModel,
  destinationValues,
  renderDestinationPage,
} from '../../views/admin/destination.js';
import { renderDestinationList } from '../../views/admin/destinations.js';
import type { FormValues } from '../../views/admin/form.js';
import { renderLocalShopPage } from '../../views/admin/local-shop.js';
import { type AdminPage, type AdminRoutes, foundById, IdParams, seeOther, sendAdminPage } from './context.js';
import {
  CreateBody,
  LocalShopBody,
  PreviewQuery,
  RemoveBookBody,
  UpdateBody,
  UpdateLinkBody,
} from './destination-schemas.js';
import { submitted } from './form-errors.js';
import {
  BLANK_FORM,
  type FailedForm,
  formOptions,
  formOptionsOn,
  nothing,
  submitForm,
} from './submit-form.js';

const previewOf = (values: FormValues) =>
  previewTemplate(
    String(values.url_template ?? ''),
    String(values.group ?? 'new'),
    String(values.affiliate_param ?? ''),
    String(values.affiliate_tag ?? ''),
  );

export const destinationRoutes: AdminRoutes = async (app, { services }) => {
  const destinations = services.admin.destinations;
  const load = (request: FastifyRequest): Promise<Destination> =>
    foundById(request, (id) => destinations.find(id), 'destination');
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    d: Destination | null,
    extra: Partial<DestinationPageModel>,
    status = 200,
  ) => {
    const values = extra.values ?? (d ? destinationValues(d) : { group: 'new', display_priority: 0 });
    const { aliases, links } = d ? await destinations.detail(d) : { aliases: [], links: [] };
    // The tags this destination's links get (and from where): the environment's are never hidden.
    const tags = d
      ? (await services.admin.affiliate.slots()).filter((slot) => slot.destination.id === d.id)
      : [];
    const model: DestinationPageModel = {
      destination: d,
      aliases,
      links,
      tags,
      values,
      errors: {},
      preview: previewOf(values),
      ...extra,
    };
    return sendAdminPage(request, reply, renderDestinationPage, model, status);
  };

  app.get('/admin/destinations', { schema: { hide: true } }, async (request, reply) => {
    return sendAdminPage(request, reply, renderDestinationList, await destinations.overview());
  });

  app.get('/admin/destinations/new', { schema: { hide: true } }, async (request, reply) =>
    page(request, reply, null, {}),
  );

  const shopPage: AdminPage<FailedForm> = async (request, reply, form = BLANK_FORM, status = 200) => {
    const preview = previewOf({ ...form.values, group: 'new' });
    return sendAdminPage(request, reply, renderLocalShopPage, { ...form, preview }, status);
  };

  app.get('/admin/destinations/local-shop', { schema: { hide: true } }, async (request, reply) =>
    shopPage(request, reply),
  );

  app.post('/admin/destinations/local-shop', formOptions(LocalShopBody), async (request, reply) => {
    // "Preview" shows the form again with the server's preview; nothing is saved.
    if (!request.validationError && request.body.action === 'preview')
      return shopPage(request, reply, { values: submitted(request), errors: {} });
    return submitForm(request, reply, {
      load: nothing,
      run: (actor, _new, body) => destinations.createLocalShop(actor, body),
      show: async (_new, failed) => shopPage(request, reply, failed, 422),
      done: (_new, id) => `/admin/destinations/${id}?notice=created`,
    });
  });

  /** The live template preview the form's script asks for as the operator types. */
  app.get(
    '/admin/destinations/preview',
    {
      schema: {
        hide: true,
        querystring: PreviewQuery,
        response: {
          200: Type.Object({
            url: Type.Union([Type.String(), Type.Null()]),
            problems: Type.Array(Type.String()),
          }),
        },
      },
    },
    async (request) => {
      const q = request.query;
      return previewTemplate(
        q.template ?? '',
        q.group ?? 'new',
        q.affiliate_param ?? '',
        q.affiliate_tag ?? '',
      );
    },
  );

  app.post('/admin/destinations', formOptions(CreateBody), async (request, reply) =>
    submitForm(request, reply, {
      load: nothing,
      run: (actor, _new, body) => destinations.create(actor, { ...body, is_active: true }),
      show: (_new, failed) => page(request, reply, null, failed, 422),
      done: (_new, id) => `/admin/destinations/${id}?notice=created`,
    }),
  );

  app.get('/admin/destinations/:id', { schema: { hide: true, params: IdParams } }, async (request, reply) =>
    page(request, reply, await load(request), {}),
  );

  app.post('/admin/destinations/:id', formOptionsOn(IdParams, UpdateBody), async (request, reply) =>
    submitForm(request, reply, {
      load: () => load(request),
      run: async (actor, d, body) => {
        const result = await destinations.update(actor, d, { ...body, slug: body.new_slug || d.slug });
        // The form names the slug field `new_slug`.
        return result.ok ? result : invalid({ ...result.errors, new_slug: result.errors.slug ?? '' });
      },
      show: (d, failed) => page(request, reply, d, failed, 422),
      done: (d) => `/admin/destinations/${d.id}?notice=saved`,
    }),
  );

  app.post(
    '/admin/destinations/:id/deactivate',
    { schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      const d = await load(request);
      await destinations.deactivate(request.adminActor, d);
      return seeOther(reply, `/admin/destinations/${d.id}?notice=saved`);
    },
  );

  app.post(
    '/admin/destinations/:id/links/update',
    formOptionsOn(IdParams, UpdateLinkBody),
    async (request, reply) =>
      submitForm(request, reply, {
        load: () => load(request),
        run: (actor, d, body) => services.admin.links.update(actor, d.id, body.link_id, body),
        // The failed row of the bulk view shows its errors; the page's own form is left as it was.
        show: (d, failed) => {
          const linkId = Number(submitted(request).link_id ?? 0);
          return page(request, reply, d, { linkErrors: { linkId, errors: failed.errors } }, 422);
        },
        done: (d) => `/admin/destinations/${d.id}?notice=saved#links`,
      }),
  );

  app.post(
    '/admin/destinations/:id/links/remove',
    formOptionsOn(IdParams, RemoveBookBody),
    async (request, reply) => {
      const d = await load(request);
      if (!request.validationError)
        await services.admin.links.remove(request.adminActor, request.body.link_id, { destinationId: d.id });
      return seeOther(reply, `/admin/destinations/${d.id}?notice=deleted#links`);
    },
  );
};
