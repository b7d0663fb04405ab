import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Destination } from '../../../domain/links.js';
import { removeBookLink } from '../../../services/admin/books.js';
import { updateDestinationLink } from '../../../services/admin/destination-links.js';
import {
  createDestination,
  deactivateDestination,
  previewTemplate,
  updateDestination,
} from '../../../services/admin/destinations.js';
import { aliasesOf, linkCounts } from '../../../store/admin-destinations.js';
import { linksOfDestination } from '../../../store/admin-links.js';
import { listAllDestinations } from '../../../store/destinations.js';
import { HttpError } from '../../errors.js';
import {
  type DestinationPageModel,
  destinationValues,
  renderDestinationPage,
} from '../../views/admin/destination.js';
import { renderDestinationList } from '../../views/admin/destinations.js';
import type { FormValues } from '../../views/admin/form.js';
import {
  type AdminRouteOptions,
  commandContext,
  dbOf,
  IdParams,
  idParam,
  noticeOf,
  seeOther,
  sendPage,
  viewerOf,
} from './context.js';
import {
  CreateBody,
  PreviewQuery,
  RemoveBookBody,
  UpdateBody,
  UpdateLinkBody,
} from './destination-schemas.js';
import { schemaErrors, submitted } from './form-errors.js';

const previewOf = (values: FormValues) =>
  previewTemplate(
    String(values.url_template ?? ''),
    String(values.group ?? 'new'),
    String(values.affiliate_param ?? ''),
    String(values.affiliate_tag ?? ''),
  );

export const destinationRoutes: FastifyPluginAsyncTypebox<AdminRouteOptions> = async (app, { services }) => {
  const db = dbOf(services);
  const load = async (request: FastifyRequest): Promise<Destination> => {
    const id = idParam(request);
    const found = (await listAllDestinations(db)).find((d) => d.id === id);
    if (!found) throw new HttpError(404, 'destination_not_found', 'There is no destination with this id.');
    return found;
  };
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    d: Destination | null,
    extra: Partial<DestinationPageModel>,
    status = 200,
  ) => {
    const values = extra.values ?? (d ? destinationValues(d) : { group: 'new', display_priority: 0 });
    const model: DestinationPageModel = {
      destination: d,
      aliases: d ? await aliasesOf(db, d.id) : [],
      links: d ? await linksOfDestination(db, d.id) : [],
      values,
      errors: {},
      preview: previewOf(values),
      notice: noticeOf(request),
      ...extra,
    };
    return sendPage(reply, renderDestinationPage(viewerOf(request), model), status);
  };

  app.get('/admin/destinations', { schema: { hide: true } }, async (request, reply) => {
    const all = await listAllDestinations(db);
    all.sort((a, b) => a.group.localeCompare(b.group) || b.displayPriority - a.displayPriority);
    return sendPage(
      reply,
      renderDestinationList(viewerOf(request), all, await linkCounts(db), noticeOf(request)),
    );
  });

  app.get('/admin/destinations/new', { schema: { hide: true } }, async (request, reply) =>
    page(request, reply, null, {}),
  );

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

  app.post(
    '/admin/destinations',
    { attachValidation: true, schema: { hide: true, body: CreateBody } },
    async (request, reply) => {
      const values = submitted(request);
      const errors = schemaErrors(request);
      if (errors) return page(request, reply, null, { values, errors }, 422);
      const result = await createDestination(commandContext(request, services), {
        ...request.body,
        is_active: true,
      });
      if (!result.ok) return page(request, reply, null, { values, errors: result.errors }, 422);
      return seeOther(reply, `/admin/destinations/${result.value}?notice=created`);
    },
  );

  app.get('/admin/destinations/:id', { schema: { hide: true, params: IdParams } }, async (request, reply) =>
    page(request, reply, await load(request), {}),
  );

  app.post(
    '/admin/destinations/:id',
    { attachValidation: true, schema: { hide: true, params: IdParams, body: UpdateBody } },
    async (request, reply) => {
      const d = await load(request);
      const values = submitted(request);
      const errors = schemaErrors(request);
      if (errors) return page(request, reply, d, { values, errors }, 422);
      const result = await updateDestination(commandContext(request, services), d, {
        ...request.body,
        slug: request.body.new_slug || d.slug,
      });
      if (!result.ok)
        return page(
          request,
          reply,
          d,
          { values, errors: { ...result.errors, new_slug: result.errors.slug ?? '' } },
          422,
        );
      return seeOther(reply, `/admin/destinations/${d.id}?notice=saved`);
    },
  );

  app.post(
    '/admin/destinations/:id/deactivate',
    { schema: { hide: true, params: IdParams } },
    async (request, reply) => {
      const d = await load(request);
      await deactivateDestination(commandContext(request, services), d);
      return seeOther(reply, `/admin/destinations/${d.id}?notice=saved`);
    },
  );

  app.post(
    '/admin/destinations/:id/links/update',
    { attachValidation: true, schema: { hide: true, params: IdParams, body: UpdateLinkBody } },
    async (request, reply) => {
      const d = await load(request);
      const linkId = Number(submitted(request).link_id ?? 0);
      const errors = schemaErrors(request);
      if (errors) return page(request, reply, d, { linkErrors: { linkId, errors } }, 422);
      const result = await updateDestinationLink(
        commandContext(request, services),
        d.id,
        request.body.link_id,
        request.body,
      );
      if (!result.ok) return page(request, reply, d, { linkErrors: { linkId, errors: result.errors } }, 422);
      return seeOther(reply, `/admin/destinations/${d.id}?notice=saved#links`);
    },
  );

  app.post(
    '/admin/destinations/:id/links/remove',
    { attachValidation: true, schema: { hide: true, params: IdParams, body: RemoveBookBody } },
    async (request, reply) => {
      const d = await load(request);
      if (!request.validationError)
        await removeBookLink(commandContext(request, services), request.body.link_id, {
          destinationId: d.id,
        });
      return seeOther(reply, `/admin/destinations/${d.id}?notice=deleted#links`);
    },
  );
};
