import { listPath } from '../../../services/lists.js';
import { FEATURED_COVERS, type FeaturedListView, renderHome } from '../../views/home-page.js';
import { HtmlPage, type PublicRoutes, pageSchema } from '../public-routes.js';

export const homeRoutes: PublicRoutes = async (app, { services }) => {
  const { lists } = services;
  app.get(
    '/',
    pageSchema({
      summary: 'Home page: search and featured lists',
      response: { 200: HtmlPage },
    }),
    async (_request, reply) => {
      const featured = await Promise.all(
        (await lists.featured(12)).map(async (list): Promise<FeaturedListView> => {
          const items = await lists.items(list);
          const books = items.slice(0, FEATURED_COVERS).map((item) => item.book);
          return { list, href: listPath(list), count: items.length, books };
        }),
      );
      // Without featured lists (a fresh import), popular catalog books keep the page from looking empty.
      const popular = featured.length === 0 ? await services.shelves.popular(12) : [];
      const brand = await services.brand.current();
      const page = renderHome(featured, services.config.baseUrl, popular, brand);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=60').send(page);
    },
  );
};
