import { Type } from 'typebox';
import { MAX_SLUG_LENGTH } from '../../../domain/slug.js';
import { requesterOf } from '../../requester.js';
import { isbnOrProblem } from '../../validation.js';
import type { PublicRoutes } from '../public-routes.js';

const CoverQuery = Type.Object({
  isbn: Type.String({
    minLength: 10,
    maxLength: 13,
    description: 'ISBN-10 or ISBN-13',
    examples: ['9780439023481'],
  }),
  slug: Type.Optional(
    Type.String({ maxLength: MAX_SLUG_LENGTH, description: 'Book whose record is updated' }),
  ),
  title: Type.Optional(Type.String({ maxLength: 300, description: 'Title, for the media-store search' })),
});

const CoverResult = Type.Object(
  {
    status: Type.Union([Type.Literal('found'), Type.Literal('not_found')]),
    cover_url: Type.Union([Type.String(), Type.Null()]),
    source: Type.Union([
      Type.Literal('googlebooks'),
      Type.Literal('openlibrary'),
      Type.Literal('itunes'),
      Type.Null(),
    ]),
  },
  {
    examples: [
      {
        status: 'found',
        cover_url: 'https://covers.openlibrary.org/b/isbn/9780439023481-L.jpg?default=false',
        source: 'openlibrary',
      },
    ],
  },
);

/** `GET /api/v1/cover-fallback` (SPEC 4.2): called by the book page when its cover loads blank or tiny. */
export const coverFallbackRoutes: PublicRoutes = async (app, { services }) => {
  app.get(
    '/api/v1/cover-fallback',
    {
      schema: {
        summary: 'Find a replacement cover image for a book',
        description:
          'Tries Google Books, the Open Library covers service and the media-store search in turn, skipping blank or tiny images. With `slug`, the book record is updated. Outcomes are cached for a day.',
        tags: ['api'],
        querystring: CoverQuery,
        response: { 200: CoverResult },
      },
    },
    async (request) => {
      const isbn = isbnOrProblem(request.query.isbn, 'query');
      const found = await services.covers.find({
        isbn,
        slug: request.query.slug ?? null,
        title: request.query.title ?? null,
        requester: requesterOf(request),
      });
      return found
        ? { status: 'found' as const, cover_url: found.coverUrl, source: found.source }
        : { status: 'not_found' as const, cover_url: null, source: null };
    },
  );
};
