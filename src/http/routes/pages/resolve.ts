import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { MayCreate, Services } from '../../../services/container.js';
import { bookPath, resolveReasonCookie, searchPath, storeHostOf } from '../../presenters/resolve.js';
import { requesterOf } from '../../requester.js';
import { servedOverHttps } from '../../security-headers.js';
import { visitorMayCreate } from '../../write-refusals.js';
import { type PublicRoutes, pageSchema } from '../public-routes.js';

const ResolveQuery = Type.Object({
  url: Type.Optional(
    Type.String({
      maxLength: 2000,
      description: 'A retailer or catalogue book URL (Amazon, Goodreads, Bookshop, Kobo, Open Library, …)',
      examples: [
        'https://www.amazon.com/dp/054792822X',
        'https://www.goodreads.com/book/show/5907.The_Hobbit',
      ],
    }),
  ),
});

/**
 * Books are created for people only (SPEC 7 rule 4): never for a client that names itself a bot,
 * and not for a request without any User-Agent (a script).
 */
export function mayCreateBook(services: Services, request: FastifyRequest): MayCreate {
  return visitorMayCreate(services, request, request.isAutomated);
}

/**
 * `GET /resolve` (SPEC 4.1, 7 rule 2): 302 to the book page; else to a search for the best text the
 * URL offers; else home. Every location is a path on this service, never the URL given.
 */
export const resolveRoutes: PublicRoutes = async (app, { services }) => {
  app.get(
    '/resolve',
    pageSchema({
      summary: 'Go to the book page for a retailer URL',
      description:
        'Redirects (302) to the book page; when the book cannot be determined, to a search for the words the URL holds (the page says why: an unknown shop, a page that is not a book, or no match); when the URL holds no words, to the home page.',
      querystring: ResolveQuery,
      response: { 302: Type.Null({ description: 'Redirect to /book/{slug}, /search?q=… or /' }) },
    }),
    async (request, reply) => {
      const outcome = await services.resolver.resolveUrl(
        request.query.url ?? '',
        mayCreateBook(services, request),
        requesterOf(request),
      );
      reply.header('cache-control', 'no-store');
      if (outcome.status === 'found') return reply.redirect(bookPath(outcome.book.slug), 302);
      if (!outcome.searchText) return reply.redirect('/', 302);
      // The search page says why the link led there; a short-lived cookie carries the reason so
      // the search URL stays the plain, shareable `/search?q=…`.
      const secure = servedOverHttps(services.config.baseUrl);
      reply.header(
        'set-cookie',
        resolveReasonCookie(outcome.reason, secure, storeHostOf(request.query.url ?? '')),
      );
      return reply.redirect(searchPath(outcome.searchText), 302);
    },
  );
};
