import { Type } from 'typebox';
import type { Brand } from '../../../domain/brand.js';
import { renderAuthorPage, renderSeriesPage } from '../../views/shelf-pages.js';
import { HtmlPage, type PublicRoutes, pageSchema } from '../public-routes.js';

const Params = Type.Object({
  slug: Type.String({
    minLength: 1,
    maxLength: 120,
    description: 'The folded name: lower case, words joined by hyphens',
    examples: ['jane-austen'],
  }),
});
const ToSearch = Type.Null({ description: 'Nothing known by that name: redirect to a search for it' });

/** An unknown name is not a dead end: the reader lands on a search for its words. */
function searchPath(slug: string): string {
  return `/search?q=${encodeURIComponent(slug.replace(/-+/g, ' ').trim())}`;
}

/** A shelf: the page's address, what the API document says of it, how it is found and drawn. */
interface Shelf<Model> {
  path: string;
  summary: string;
  find(slug: string): Promise<Model | null>;
  render(model: Model, baseUrl: string, brand: Brand): string;
}

/** `/series/{slug}` (volumes in reading order) and `/author/{slug}` (books, most popular first). */
export const shelfRoutes: PublicRoutes = async (app, { services }) => {
  const { baseUrl } = services.config;

  const serve = <Model>({ path, summary, find, render }: Shelf<Model>) =>
    app.get(
      path,
      pageSchema({ summary, params: Params, response: { 200: HtmlPage, 302: ToSearch } }),
      async (request, reply) => {
        const model = await find(request.params.slug.toLowerCase());
        if (!model) return reply.redirect(searchPath(request.params.slug), 302);
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'public, max-age=300')
          .send(render(model, baseUrl, await services.brand.current()));
      },
    );

  serve({
    path: '/series/:slug',
    summary: "A series' volumes in reading order, each linked to its book page or ISBN link",
    find: (slug) => services.shelves.series(slug),
    render: renderSeriesPage,
  });
  serve({
    path: '/author/:slug',
    summary: "An author's books, most popular first (reader clicks, then the catalog's ratings count)",
    find: (slug) => services.shelves.author(slug),
    render: renderAuthorPage,
  });
};
