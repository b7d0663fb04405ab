import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Requester } from '../../../catalog/requester.js';
import type { MayCreate } from '../../../services/container.js';
import { ClientResolveResult, presentResolve, ResolveResult } from '../../presenters/resolve.js';
import { requesterOf } from '../../requester.js';
import { refuseIfCreationRefused } from '../../write-refusals.js';
import { mayCreateBook } from '../pages/resolve.js';
import type { PublicRoutes } from '../public-routes.js';

const ResolveQuery = Type.Object({
  url: Type.Optional(
    Type.String({
      maxLength: 2000,
      description:
        'Any supported retailer or catalogue book URL; short links (amzn.to, a.co) are followed. Without it the answer is not_found with a link to the search page.',
      examples: ['https://www.amazon.com/The-Hobbit-J-R-R-Tolkien/dp/054792822X/ref=sr_1_1'],
    }),
  ),
  source: Type.Optional(
    Type.String({
      maxLength: 50,
      description: 'Integration identifier, form `app-<yourname>`',
      examples: ['app-mybot'],
    }),
  ),
});

const ClientResolveRequest = Type.Object(
  {
    input: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: 'Free text, an ISBN, or a book URL',
      examples: ['https://www.goodreads.com/book/show/5907.The_Hobbit', '978-0-547-92822-7', 'the hobbit'],
    }),
  },
  { description: 'ClientResolveRequest (SPEC 2.4)' },
);

/**
 * `GET /api/v1/resolve` and `POST /api/v1/clients/resolve` (SPEC 4.2, 2.2, 7 rule 1): always 200
 * with found or not_found. Automated clients (by User-Agent) read existing books but never create.
 */
export const apiResolveRoutes: PublicRoutes = async (app, { services }) => {
  const base = services.config.baseUrl;
  /** Resolves with what this request may create; no book where creating was refused is the 429. */
  const resolveFor = async <Outcome extends { status: string }>(
    request: FastifyRequest,
    reply: FastifyReply,
    resolve: (mayCreate: MayCreate, requester: Requester) => Promise<Outcome>,
  ): Promise<Outcome> => {
    const mayCreate = mayCreateBook(services, request);
    const outcome = await resolve(mayCreate, requesterOf(request));
    if (outcome.status !== 'found') refuseIfCreationRefused(reply, mayCreate);
    return outcome;
  };

  app.get(
    '/api/v1/resolve',
    {
      schema: {
        summary: 'Turn a retailer book URL into one stable book link',
        description:
          'Answers `found` with the book (booklink_url, short_url, title, authors, cover_url, isbn) or `not_found` with a `search_url` (carrying the words the URL holds) when the URL cannot be tied to exactly one book. Any valid ISBN anywhere in any URL names its edition (local catalog, then the metadata providers); OCLC, Goodreads, LibraryThing, Google Books and Apple Books (ebook and audiobook) ids and title-and-author slugs are asked of the providers. Non-book products (a DVD) are never matched.',
        tags: ['api'],
        querystring: ResolveQuery,
        response: { 200: ResolveResult },
      },
    },
    async (request, reply) => {
      const outcome = await resolveFor(request, reply, (mayCreate, requester) =>
        services.resolver.resolveUrl(request.query.url ?? '', mayCreate, requester),
      );
      return presentResolve(outcome, base);
    },
  );

  app.post(
    '/api/v1/clients/resolve',
    {
      schema: {
        summary: 'Resolve free text, an ISBN or a book URL to one book',
        description:
          'The resolve result (SPEC 2.2) plus `input_kind` (`url`, `isbn` or `text`). Text resolves only on a confident search match.',
        tags: ['api'],
        body: ClientResolveRequest,
        response: { 200: ClientResolveResult },
      },
    },
    async (request, reply) => {
      const outcome = await resolveFor(request, reply, (mayCreate, requester) =>
        services.resolver.resolveInput(request.body.input, mayCreate, requester),
      );
      return { ...presentResolve(outcome, base), input_kind: outcome.inputKind };
    },
  );
};
