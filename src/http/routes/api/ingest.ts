import { Type } from 'typebox';
import { listPath } from '../../../services/lists.js';
import { ValidationProblem } from '../../errors.js';
import { requireScope } from '../../plugins/api-keys.js';
import { Integer, Nullable } from '../../validation.js';
import type { PublicRoutes } from '../public-routes.js';

const IngestBookRequest = Type.Object(
  {
    isbn_13: Nullable(Type.String()),
    isbn_10: Nullable(Type.String()),
    title: Nullable(Type.String()),
    author: Nullable(Type.String()),
    url: Nullable(Type.String()),
    rank: Nullable(Integer()),
  },
  { description: 'SPEC 2.4 IngestBookRequest: isbn_13, isbn_10, title with author, or a retailer url' },
);

const IngestListRequest = Type.Object(
  {
    list_source: Type.String({ maxLength: 100 }),
    books: Type.Array(IngestBookRequest, { minItems: 1, maxItems: 500 }),
    list_name: Nullable(Type.String({ maxLength: 500 })),
    list_date: Nullable(Type.String({ maxLength: 20 })),
    destination_slug: Nullable(Type.String({ maxLength: 100 })),
    is_featured: Type.Optional(Type.Boolean({ default: false })),
  },
  {
    description: 'SPEC 2.4 IngestListRequest; the same source, name and date replace the earlier list',
    examples: [
      {
        list_source: 'nyt',
        list_name: 'Fiction',
        list_date: '2025-06-01',
        books: [{ isbn_13: '9780441172719', rank: 1 }],
      },
    ],
  },
);

const RowResult = Type.Object({
  row: Integer({ description: '0-based index in books' }),
  rank: Type.Union([Integer(), Type.Null()]),
  status: Type.Union([Type.Literal('found'), Type.Literal('not_found')]),
  book_id: Type.Optional(Integer()),
  slug: Type.Optional(Type.String()),
  booklink_url: Type.Optional(Type.String()),
  reason: Type.Optional(Type.String()),
  detail: Type.Optional(Type.String()),
});

const IngestResult = Type.Object({
  list_id: Type.String({ description: 'The list id, as GET /api/v1/lists/{id} takes it' }),
  url: Type.String(),
  resolved: Integer(),
  unresolved: Integer(),
  rows: Type.Array(RowResult),
});

/** `POST /api/v1/ingest/lists` (DESIGN): partner lists, for keys with the `ingest` scope. */
export const ingestRoutes: PublicRoutes = async (app, { services }) => {
  const { ingest } = services;
  const base = services.config.baseUrl;
  app.post(
    '/api/v1/ingest/lists',
    {
      preHandler: requireScope('ingest'),
      schema: {
        summary: 'Ingest a ranked list of books (bestsellers, prizes); needs an X-API-Key with scope ingest',
        tags: ['ingest'],
        body: IngestListRequest,
        response: {
          201: IngestResult,
          401: Type.Object({ detail: Type.String() }),
          403: Type.Object({ detail: Type.String() }),
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const destination = body.destination_slug?.trim();
      if (destination && !(await ingest.knowsDestination(destination))) {
        throw new ValidationProblem([
          {
            type: 'value_error',
            loc: ['body', 'destination_slug'],
            msg: 'Value error, unknown destination',
            input: destination,
          },
        ]);
      }
      const { list, outcomes } = await ingest.run({ ...body, destination_slug: destination || null });
      const rows = outcomes.map((outcome, row) => {
        const rank = body.books[row]?.rank ?? null;
        if (outcome.kind === 'unresolved') {
          return { row, rank, status: 'not_found' as const, reason: outcome.reason, detail: outcome.detail };
        }
        const { book } = outcome;
        const booklink_url = `${base}/book/${encodeURIComponent(book.slug)}`;
        return { row, rank, status: 'found' as const, book_id: book.id, slug: book.slug, booklink_url };
      });
      const resolved = rows.filter((row) => row.status === 'found').length;
      return reply.code(201).send({
        list_id: list.publicId,
        url: `${base}${listPath(list)}`,
        resolved,
        unresolved: rows.length - resolved,
        rows,
      });
    },
  );
};
