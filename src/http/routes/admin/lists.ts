import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../../services/container.js';
import { type List, listPath } from '../../../services/lists.js';
import { Integer } from '../../validation.js';
import { LISTS_PAGE_SIZE, renderListIndex } from '../../views/admin/lists.js';
import { type ListAdminModel, renderListAdmin, renderListDelete } from '../../views/admin/lists-detail.js';
import { type AdminRoutes, foundById, IdParams, seeOther, sendAdminPage, sendPage } from './context.js';
import { formOptions, formOptionsOn, nothing, submitForm } from './submit-form.js';

export const listOr404 = (services: Services, request: FastifyRequest): Promise<List> =>
  foundById(request, (id) => services.admin.lists.find(id), 'list');

/** The list's page, optionally with one form refilled and its errors beside the fields (then a 422). */
export async function showListPage(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  list: List,
  failed?: ListAdminModel['failed'],
): Promise<FastifyReply> {
  const items = await services.admin.lists.items(list);
  const model = { list, items, path: listPath(list), failed, ...(failed ? { notice: null } : {}) };
  return sendAdminPage(request, reply, renderListAdmin, model, failed ? 422 : 200);
}

const IndexQuery = Type.Object({
  q: Type.String({ default: '', maxLength: 200 }),
  kind: Type.Union(
    [Type.Literal(''), Type.Literal('admin'), Type.Literal('ingest'), Type.Literal('reader')],
    {
      default: '',
    },
  ),
  page: Integer({ default: 1, minimum: 1, maximum: 10_000 }),
});
const EditBody = Type.Object({
  name: Type.String({ default: '', maxLength: 500 }),
  description: Type.String({ default: '', maxLength: 2000 }),
  list_date: Type.String({ default: '', maxLength: 20 }),
  is_featured: Type.Boolean({ default: false }),
});
const FeatureBody = Type.Object({
  featured: Type.Boolean(),
  back: Type.Union([Type.Literal('index'), Type.Literal('list')], { default: 'list' }),
});
const DeleteBody = Type.Object({ confirm: Type.String({ default: '' }) });
const NewListBody = Type.Object({
  name: Type.String({ default: '', maxLength: 500 }),
  description: Type.String({ default: '', maxLength: 2000 }),
  list_date: Type.String({ default: '', maxLength: 20 }),
  is_featured: Type.Boolean({ default: false }),
  books: Type.String({ default: '', maxLength: 100_000 }),
});

export const listRoutes: AdminRoutes = async (app, { services }) => {
  const lists = services.admin.lists;

  app.get(
    '/admin/lists',
    { attachValidation: true, schema: { hide: true, querystring: IndexQuery } },
    async (request, reply) => {
      // A hand-edited address with a bad filter shows the first page of everything, not an error.
      const query = request.validationError ? { q: '', kind: '' as const, page: 1 } : request.query;
      const filter = {
        q: query.q,
        kind: query.kind || null,
        offset: (query.page - 1) * LISTS_PAGE_SIZE,
        limit: LISTS_PAGE_SIZE,
      };
      return sendAdminPage(request, reply, renderListIndex, { rows: await lists.search(filter), filter });
    },
  );

  app.post('/admin/lists', formOptions(NewListBody), async (request, reply) =>
    submitForm(request, reply, {
      load: nothing,
      run: (actor, _new, body) => lists.create(actor, body),
      show: async (_new, failed) => {
        const filter = { q: '', kind: null, offset: 0, limit: LISTS_PAGE_SIZE };
        const model = { rows: await lists.search(filter), filter, notice: null, failed };
        return sendPage(reply, renderListIndex(request.adminViewer, model), 422);
      },
      done: (_new, id) => `/admin/lists/${id}?notice=created`,
    }),
  );

  // attachValidation: a mistyped id is a 404 page (listOr404), never a raw validation body.
  const byId = { attachValidation: true, schema: { hide: true, params: IdParams } };
  app.get('/admin/lists/:id', byId, async (request, reply) =>
    showListPage(services, request, reply, await listOr404(services, request)),
  );

  app.post('/admin/lists/:id/edit', formOptionsOn(IdParams, EditBody), async (request, reply) =>
    submitForm(request, reply, {
      load: () => listOr404(services, request),
      run: (actor, list, body) => lists.update(actor, list, body),
      show: (list, failed) => showListPage(services, request, reply, list, { form: 'edit', ...failed }),
      done: (list) => `/admin/lists/${list.id}?notice=saved`,
    }),
  );

  app.post('/admin/lists/:id/feature', formOptionsOn(IdParams, FeatureBody), async (request, reply) => {
    const list = await listOr404(services, request);
    // Only the two buttons post here; anything else changes nothing and lands back on the list.
    if (request.validationError) return seeOther(reply, `/admin/lists/${list.id}`);
    await lists.feature(request.adminActor, list, request.body.featured);
    const back =
      request.body.back === 'index' ? '/admin/lists?notice=saved' : `/admin/lists/${list.id}?notice=saved`;
    return seeOther(reply, back);
  });

  app.get('/admin/lists/:id/delete', byId, async (request, reply) => {
    const list = await listOr404(services, request);
    const model = { list, itemCount: (await lists.items(list)).length };
    return sendPage(reply, renderListDelete(request.adminViewer, model));
  });

  app.post('/admin/lists/:id/delete', formOptionsOn(IdParams, DeleteBody), async (request, reply) => {
    const list = await listOr404(services, request);
    // Without the confirmation page's field, ask first rather than delete.
    if (request.validationError || request.body.confirm !== 'yes')
      return seeOther(reply, `/admin/lists/${list.id}/delete`);
    await lists.delete(request.adminActor, list);
    return seeOther(reply, '/admin/lists?notice=deleted');
  });
};
