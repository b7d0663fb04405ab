import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../../services/container.js';
import { renderAuthorPage, renderSeriesPage } from '../../views/shelf-pages.js';

const Params = Type.Object({
  slug: Type.String({
    minLength: 1,
    maxLength: 120,
    description: 'The folded name: lower case, words joined by hyphens',
    examples: ['jane-austen'],
  }),
});
const Html = Type.String({ description: 'HTML page' });
const ToSearch = Type.Null({ description: 'Nothing known by that name: redirect to a search for it' });

/** An unknown name is not a dead end: the reader lands on a search for its words. */
function searchPath(slug: string): string {
  return `/search?q=${encodeURIComponent(slug.replace(/-+/g, ' ').trim())}`;
}

/** `/series/{slug}` (volumes in reading order) and `/author/{slug}` (books, most popular first). */
export const shelfRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const { baseUrl } = services.config;

  app.get(
    '/series/:slug',
    {
      schema: {
        summary: "A series' volumes in reading order, each linked to its book page or ISBN link",
        tags: ['pages'],
        params: Params,
        response: { 200: Html, 302: ToSearch },
      },
    },
    async (request, reply) => {
      const model = await services.shelves.series(request.params.slug.toLowerCase());
      if (!model) return reply.redirect(searchPath(request.params.slug), 302);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(renderSeriesPage(model, baseUrl, await services.brand.current()));
    },
  );

  app.get(
    '/author/:slug',
    {
      schema: {
        summary: "An author's books, most popular first (reader clicks, then the catalog's ratings count)",
        tags: ['pages'],
        params: Params,
        response: { 200: Html, 302: ToSearch },
      },
    },
    async (request, reply) => {
      const model = await services.shelves.author(request.params.slug.toLowerCase());
      if (!model) return reply.redirect(searchPath(request.params.slug), 302);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(renderAuthorPage(model, baseUrl, await services.brand.current()));
    },
  );
};
