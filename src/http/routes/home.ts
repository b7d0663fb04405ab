import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../services/container.js';
import { Lists, listPath } from '../../services/lists.js';
import type { List } from '../../store/lists.js';
import { html } from '../views/html.js';
import { renderLayout, searchForm } from '../views/layout.js';
import { listTitle } from '../views/list-page.js';

/** A minimal home page: the search box and the operator's featured lists. */
function renderHome(featured: readonly List[], baseUrl: string): string {
  const lists =
    featured.length > 0
      ? html`<section class="featured-lists" aria-labelledby="featured-title">
  <h2 id="featured-title">Featured lists</h2>
  <ul>${featured.map((list) => html`<li><a href="${listPath(list)}">${listTitle(list)}</a></li>`)}</ul>
</section>`
      : html``;
  return renderLayout({
    title: 'Booklink: one link for every book',
    description:
      'One stable link per book, listing every place to get it: new, used, ebook, audio, library, free.',
    canonicalUrl: `${baseUrl}/`,
    headerSearch: false,
    bodyClass: 'page-home',
    body: html`<main id="main" class="home">
  <h1>One link for every book</h1>
  <p>Find a book by title, author or ISBN and see every place to get it.</p>
  ${searchForm(undefined, 'search search--home', 'Search books')}
  ${lists}
  <p><a href="/saved">Your saved books</a></p>
</main>`,
  });
}

export const homeRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (app, { services }) => {
  const lists = new Lists(services.store.db);
  app.get(
    '/',
    {
      schema: {
        summary: 'Home page: search and featured lists',
        tags: ['pages'],
        response: { 200: Type.String({ description: 'HTML page' }) },
      },
    },
    async (_request, reply) => {
      const page = renderHome(await lists.featured(12), services.config.baseUrl);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=60').send(page);
    },
  );
};
