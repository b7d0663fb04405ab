import { Type } from 'typebox';
import { writerOf } from '../../plugins/rate-limit.js';
import { Integer } from '../../validation.js';
import { renderSavedPage, SAVED_VIEWS, type SavedView } from '../../views/saved-page.js';
import { refuseIfOverCap } from '../../write-refusals.js';
import { HtmlPage, type PublicRoutes, pageSchema } from '../public-routes.js';

const nullable = <T extends Type.TSchema>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

export const SAVED_EVENT_TYPES = [
  'saved_add',
  'saved_remove',
  'saved_page_view',
  'saved_share',
  'saved_undo',
  'saved_view_change',
] as const;

const SavedEventRequest = Type.Object(
  {
    event_type: Type.Enum([...SAVED_EVENT_TYPES]),
    collection_size: Integer({ minimum: 0, description: 'Books in the collection after the event' }),
    book_slug: nullable(Type.String({ maxLength: 200 })),
    view_mode: nullable(Type.String({ pattern: '^(list|cover|card)$' })),
    client_token: nullable(Type.String({ maxLength: 36, description: 'A random id the browser keeps' })),
  },
  {
    description: 'SPEC 2.4 SavedEventRequest',
    examples: [{ event_type: 'saved_add', collection_size: 3, book_slug: 'dune-frank-herbert' }],
  },
);

/** A shared collection names at most this many books; more would make an unwieldy URL anyway. */
const MAX_SHARED = 100;

/**
 * Saved books live in the reader's browser (web/saved.js); the server only renders shared
 * collections (`/saved?books=a,b`, readable without JavaScript) and logs what readers do with them.
 */
export const savedRoutes: PublicRoutes = async (app, { services }) => {
  const { saved } = services;

  app.post(
    '/api/v1/events/saved',
    {
      schema: {
        summary: 'Log an interaction with a saved-books collection',
        tags: ['events'],
        body: SavedEventRequest,
        response: { 204: Type.Null({ description: 'Logged' }) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const admission = await saved.record(
        {
          eventType: body.event_type,
          collectionSize: body.collection_size,
          bookSlug: body.book_slug ?? null,
          viewMode: body.view_mode ?? null,
          clientToken: body.client_token ?? null,
        },
        writerOf(request),
      );
      refuseIfOverCap(reply, 'saved_event', admission);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/saved',
    pageSchema({
      summary: 'Saved books: your collection, or a shared one with ?books=slug1,slug2',
      querystring: Type.Object({
        books: Type.Optional(Type.String({ maxLength: 10_000, description: 'Comma-separated book slugs' })),
        view: Type.Optional(Type.String({ maxLength: 10, description: 'list, cover or card' })),
      }),
      response: { 200: HtmlPage },
    }),
    async (request, reply) => {
      const slugs = [...new Set((request.query.books ?? '').split(',').map((slug) => slug.trim()))]
        .filter((slug) => slug.length > 0 && slug.length <= 80)
        .slice(0, MAX_SHARED);
      const shared = await saved.booksBySlugs(slugs);
      const view: SavedView = SAVED_VIEWS.find((name) => name === request.query.view) ?? 'list';
      const page = renderSavedPage(
        {
          shared: request.query.books === undefined ? null : shared,
          sharedSlugs: shared.map((book) => book.slug),
          view,
          baseUrl: services.config.baseUrl,
        },
        await services.brand.current(),
      );
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
    },
  );
};
