import { Type } from 'typebox';
import { listIdOfRef } from '../../../domain/list-ids.js';
import { listPath } from '../../../services/lists.js';
import { notFound } from '../../errors.js';
import { renderListPage } from '../../views/list-page.js';
import { HtmlPage, type PublicRoutes, pageSchema } from '../public-routes.js';

/** The public id (domain/list-ids.ts: no `-` in it), then the name's words, if any. */

/**
 * `/list/{id}` and `/list/{id}-{words}`: the public page of any list (a reader's or an ingested one),
 * by its public id only (an old list's number, or a new list's random id: never a new list's key).
 */
export const listPageRoutes: PublicRoutes = async (app, { services }) => {
  const { lists } = services;
  app.get(
    '/list/:ref',
    pageSchema({
      summary: 'The public page of a list',
      params: Type.Object({
        ref: Type.String({ minLength: 1, maxLength: 200, description: 'id or id-words' }),
      }),
      response: { 200: HtmlPage, 301: Type.Null() },
    }),
    async (request, reply) => {
      const id = listIdOfRef(request.params.ref);
      const found = id ? await lists.get(id) : null;
      if (!found) throw notFound('There is no list at this address.');
      const canonical = listPath(found.list);
      // The words follow the name; an old or mistyped name still reaches the list, at its current address.
      if (`/list/${encodeURIComponent(request.params.ref)}` !== canonical)
        return reply.redirect(canonical, 301);
      const page = renderListPage(
        { ...found, baseUrl: services.config.baseUrl, path: canonical },
        await services.brand.current(),
      );
      return reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=60').send(page);
    },
  );
};
