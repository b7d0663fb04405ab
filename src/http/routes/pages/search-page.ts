import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { MayCreate, Services } from '../../../services/container.js';
import type { Candidate, SearchOutcome } from '../../../services/search/service.js';
import { HttpError } from '../../errors.js';
import { writerOf } from '../../plugins/rate-limit.js';
import { type ResolveNote, readResolveReason, resolveReasonCookie } from '../../presenters/resolve.js';
import { requesterOf } from '../../requester.js';
import { servedOverHttps } from '../../security-headers.js';
import { Integer } from '../../validation.js';
import { renderMissThanks, renderSearchPage, type SearchResultView } from '../../views/search-page.js';
import { refuseIfCreationRefused, visitorMayCreate } from '../../write-refusals.js';
import { recordMiss } from '../api/search-feedback.js';
import { type PublicRoutes, pageSchema } from '../public-routes.js';

const SearchPageQuery = Type.Object({
  q: Type.Optional(
    Type.String({ maxLength: 500, description: 'Title, author or ISBN', examples: ['hunger games'] }),
  ),
  pick: Type.Optional(Integer({ minimum: 1, description: 'Go to result N of this search (1-based)' })),
  sfid: Type.Optional(Integer({ minimum: 1, description: 'The logged search this link came from' })),
  human: Type.Optional(
    Type.String({ maxLength: 5, description: 'Append `human=1` when building links on a server' }),
  ),
  source: Type.Optional(Type.String({ maxLength: 50, description: 'Integration identifier' })),
  lang: Type.Optional(
    Type.String({ maxLength: 10, description: 'Page language (en, de, fr, es, it, nl, pt, ja)' }),
  ),
  exact: Type.Optional(
    Type.Literal('1', { description: 'Search the words exactly as typed: no respelling, no words dropped' }),
  ),
});

const MissForm = Type.Object({
  query: Type.String({ maxLength: 500 }),
  result_count: Integer({ minimum: 0 }),
  sfid: Type.Optional(Integer({ minimum: 1 })),
  details: Type.Optional(Type.String({ maxLength: 2000 })),
});

/** Pick links carry the search id so the book page and later clicks are attributed to it. */
export function pickUrl(query: string, position: number, sfid: number | null, exact = false): string {
  const params = new URLSearchParams({ q: query, pick: String(position) });
  if (sfid !== null) params.set('sfid', String(sfid));
  if (exact) params.set('exact', '1');
  return `/search?${params}`;
}

function resultView(
  result: Candidate,
  query: string,
  position: number,
  sfid: number | null,
  exact: boolean,
): SearchResultView {
  const { record } = result;
  return {
    title: record.title,
    authors: record.authors,
    coverUrl: record.coverUrl,
    year: record.publishedDate?.slice(0, 4) ?? null,
    isbn: record.isbn13,
    href: pickUrl(query, position, sfid, exact),
  };
}

const bookLocation = (slug: string, sfid: number | null) =>
  `/book/${encodeURIComponent(slug)}${sfid === null ? '' : `?sfid=${sfid}`}`;

/**
 * Books are created for people only: never for a client that names itself a bot (SPEC 7 rule 4);
 * a request with no User-Agent at all is a script unless the link was built with `human=1`.
 */
function mayCreate(services: Services, request: FastifyRequest, human: string | undefined): MayCreate {
  const automated = request.isAutomated || !(request.headers['user-agent'] || human === '1');
  return visitorMayCreate(services, request, automated);
}

/** `/search` (SPEC 4.1): straight to the book on a confident match, else a page of results. */
export const searchPageRoutes: PublicRoutes = async (app, { services }) => {
  const { search } = services;
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(String(body))));
      },
    );
  }

  const page = async (
    reply: FastifyReply,
    query: string,
    outcome: SearchOutcome | null,
    sfid: number | null,
    resolveNote: ResolveNote | null = null,
    exact = false,
  ) => {
    const results = outcome ? outcome.results.map((r, i) => resultView(r, query, i + 1, sfid, exact)) : [];
    const brand = await services.brand.current();
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        renderSearchPage({
          brand,
          query,
          sfid,
          results,
          resolveReason: query ? (resolveNote?.reason ?? null) : null,
          resolveStore: resolveNote?.store ?? null,
          incomplete: outcome?.incomplete ?? false,
          readAs: outcome?.readAs ?? null,
          isbnQuery: outcome?.query.kind === 'isbn',
        }),
      );
  };

  /** The search's log id; null past the address's cap of logged searches, and the page answers alike. */
  async function logged(request: FastifyRequest, outcome: SearchOutcome, source: string | null) {
    const admission = await services.writes.admit('search', writerOf(request));
    return admission.kind === 'admitted' ? search.log(outcome, 'page', source) : null;
  }

  async function pick(
    request: FastifyRequest,
    reply: FastifyReply,
    q: string,
    position: number,
    sfid: number | undefined,
    human?: string,
    exact = false,
  ) {
    const outcome = await search.search(q, 20, requesterOf(request), exact);
    const chosen = outcome.results[position - 1];
    if (!chosen)
      throw new HttpError(
        404,
        'pick_gone',
        'That search result is no longer available. Try the search again.',
      );
    const allowance = mayCreate(services, request, human);
    const book = await search.bookFor(chosen, allowance);
    refuseIfCreationRefused(reply, allowance);
    if (!book) throw new HttpError(404, 'book_not_created', 'This book has no page yet.');
    const id = sfid ?? (await logged(request, outcome, null));
    return reply.redirect(bookLocation(book.slug, id), 302);
  }

  app.get(
    '/search',
    pageSchema({
      summary: 'Search books; a confident match redirects to the book page',
      querystring: SearchPageQuery,
      response: {
        200: Type.String({ description: 'HTML page of results' }),
        302: Type.Null({ description: 'Redirect to the book page (or to /resolve for a URL)' }),
      },
    }),
    async (request, reply) => {
      const { q = '', pick: position, sfid, human, source } = request.query;
      const exact = request.query.exact === '1';
      const query = q.trim();
      // Why /resolve sent the reader here (shown once, then forgotten, whatever this answer is).
      const resolveReason = readResolveReason(request.headers.cookie);
      if (resolveReason) {
        reply.header('set-cookie', resolveReasonCookie(null, servedOverHttps(services.config.baseUrl)));
      }
      if (!query) return page(reply, '', null, null);
      if (position !== undefined) return pick(request, reply, query, position, sfid, human, exact);
      const outcome = await search.search(query, 10, requesterOf(request), exact);
      if (outcome.query.kind === 'url')
        return reply.redirect(`/resolve?${new URLSearchParams({ url: outcome.query.url })}`, 302);
      const id = await logged(request, outcome, source ?? null);
      if (outcome.query.kind === 'isbn') {
        const created = await search.creator.byIsbn(
          outcome.query.isbn,
          mayCreate(services, request, human),
          requesterOf(request),
        );
        if (created.kind === 'existing' || created.kind === 'created')
          return reply.redirect(bookLocation(created.book.slug, id), 302);
      } else if (outcome.confident) {
        const book = await search.bookFor(outcome.confident, mayCreate(services, request, human));
        if (book) return reply.redirect(bookLocation(book.slug, id), 302);
      }
      return page(reply, query, outcome, id, resolveReason, exact);
    },
  );

  app.post(
    '/search/miss',
    pageSchema({
      summary: "Can't find my book (form post without JavaScript)",
      body: MissForm,
      response: { 201: Type.String({ description: 'HTML page: thanks' }) },
    }),
    async (request, reply) => {
      await recordMiss(services, request, reply, request.body);
      return reply
        .code(201)
        .type('text/html; charset=utf-8')
        .send(renderMissThanks(request.body.query, await services.brand.current()));
    },
  );
};
