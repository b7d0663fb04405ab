import { Type } from 'typebox';
import { MAX_SLUG_LENGTH } from '../../../domain/slug.js';
import { notFound } from '../../errors.js';
import { renderEmbedBuilderPage } from '../../views/book-embed.js';
import { HtmlPage, type PublicRoutes, pageSchema } from '../public-routes.js';

/**
 * `/book/{slug}/embed`: the embed builder, a page for site owners (the snippet for the script or the
 * iframe embed, with a preview). The book page links it from its share card; it reads no cookie, so
 * one cached answer serves everyone.
 */
export const embedBuilderRoutes: PublicRoutes = async (app, { services }) => {
  app.get(
    '/book/:slug/embed',
    pageSchema({
      summary: "The embed builder: the code that shows a book's links on another site",
      params: Type.Object({
        slug: Type.String({ minLength: 1, maxLength: MAX_SLUG_LENGTH, description: 'The book slug' }),
      }),
      response: { 200: HtmlPage },
    }),
    async (request, reply) => {
      const loaded = await services.pages.load(request.params.slug);
      if (!loaded) throw notFound('There is no book at this address.');
      const { book } = loaded;
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(
          renderEmbedBuilderPage({ baseUrl: services.config.baseUrl, slug: book.slug, title: book.title }),
        );
    },
  );
};
