import { Type } from 'typebox';
import { writerOf } from '../../plugins/rate-limit.js';
import { requesterOf } from '../../requester.js';
import { Integer } from '../../validation.js';
import type { PublicRoutes } from '../public-routes.js';

const SearchQuerystring = Type.Object({
  q: Type.String({
    minLength: 1,
    maxLength: 500,
    description: 'Title, author or ISBN (free text: "title by author", "author: title", series numbers)',
    examples: ['the hobbit by tolkien', '978-0-439-02348-1', 'hunger games 2'],
  }),
  limit: Integer({ minimum: 1, maximum: 20, default: 5, description: 'Candidates to return, 1 to 20' }),
  source: Type.Optional(
    Type.String({
      maxLength: 50,
      description: 'Integration identifier, form `app-<yourname>`',
      examples: ['app-mybot'],
    }),
  ),
});

const SearchCandidate = Type.Object(
  {
    title: Type.String({ examples: ['The Hobbit'] }),
    authors: Type.Array(Type.String(), { examples: [['J.R.R. Tolkien']] }),
    cover_url: Type.Union([Type.String(), Type.Null()], { description: 'Cover image URL; hosts vary' }),
    isbn: Type.Union([Type.String(), Type.Null()], {
      description: 'ISBN-13 of the edition',
      examples: ['9780547928227'],
    }),
    published_date: Type.Union([Type.String(), Type.Null()], {
      description: 'ISO 8601 date or year',
      examples: ['2012-09-18'],
    }),
    search_url: Type.String({
      description:
        'Absolute link that opens (and on first visit creates) the book page: {base_url}/search?q=<text>&pick=<n>',
      examples: ['https://booklink.example/search?q=the+hobbit&pick=1'],
    }),
  },
  { description: 'A candidate book; not a saved book, so it has no slug' },
);

const SearchResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('found'), Type.Literal('not_found')]),
    results: Type.Array(SearchCandidate),
    incomplete: Type.Boolean({
      description:
        'true when a metadata provider that would have been asked could not be (the service has used up its request budget for it, the provider answered that its quota is spent, or it is failing): the results then come from the local catalog and earlier answers only and may be incomplete; asking again in a minute may find more',
    }),
  },
  {
    description: 'Search result (SPEC 2.3)',
    examples: [{ status: 'not_found', results: [], incomplete: false }],
  },
);

/** `GET /api/v1/search` (SPEC 4.2, 2.3): candidates for a text or ISBN, each with a pick link. */
export const apiSearchRoutes: PublicRoutes = async (app, { services }) => {
  const base = services.config.baseUrl;
  app.get(
    '/api/v1/search',
    {
      schema: {
        summary: 'Find books by title, author or ISBN',
        description:
          'Answers `{"status":"found","results":[…],"incomplete":false}` with up to `limit` candidates, best first, one per work (the mainstream trade edition), or `{"status":"not_found","results":[],"incomplete":false}`. `incomplete` is true when a metadata provider could not be asked (the service\'s request budget for it is spent): the answer then holds what the local catalog and earlier answers know.',
        tags: ['api'],
        querystring: SearchQuerystring,
        response: { 200: SearchResponse },
      },
    },
    async (request) => {
      const { q, limit, source } = request.query;
      const text = q.trim();
      const outcome = await services.search.search(text, limit, requesterOf(request));
      // Off the request path: the answer carries no search id. Past its address's cap of logged
      // searches in the window a search is still answered, only not logged.
      if ((await services.writes.admit('search', writerOf(request))).kind === 'admitted')
        await services.search.record(outcome, 'api', source ?? null);
      // The text's part of every pick link, encoded once: `q=…&pick=n` as URLSearchParams writes both.
      const picked = `${base}/search?${new URLSearchParams({ q: text })}&pick=`;
      const results = outcome.results.map((result, i) => ({
        title: result.record.title,
        authors: result.record.authors,
        cover_url: result.record.coverUrl,
        isbn: result.record.isbn13,
        published_date: result.record.publishedDate,
        search_url: `${picked}${i + 1}`,
      }));
      const status = results.length > 0 ? ('found' as const) : ('not_found' as const);
      return { status, results, incomplete: outcome.incomplete };
    },
  );
};
