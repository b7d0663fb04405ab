import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../../services/container.js';
import { notFound } from '../../errors.js';
import { writerOf } from '../../plugins/rate-limit.js';
import { absentAsNull, Integer, Nullable } from '../../validation.js';
import { refuseIfOverCap } from '../../write-refusals.js';
import type { PublicRoutes } from '../public-routes.js';

const SearchFeedbackRequest = Type.Object(
  {
    query: Type.String({ maxLength: 500, description: 'The query as typed' }),
    parsed_title: Nullable(Type.String({ maxLength: 500 })),
    parsed_author: Nullable(Type.String({ maxLength: 300 })),
    result_count: Integer({ minimum: 0 }),
    clicked_position: Integer({ minimum: 1, description: '1-based position of the clicked result' }),
    clicked_book_id: Nullable(Integer()),
    clicked_score: Nullable(Integer()),
    clicked_relevance: Nullable(Integer()),
    top_results_json: Nullable(Type.String({ maxLength: 5000 })),
    source_sfid: Nullable(Integer()),
  },
  {
    description: 'A click on a search result (SPEC 2.4 SearchFeedbackRequest)',
    examples: [{ query: 'dune', result_count: 5, clicked_position: 1 }],
  },
);

const SearchMissRequest = Type.Object(
  {
    query: Type.String({ maxLength: 500 }),
    result_count: Integer({ minimum: 0 }),
    sfid: Nullable(Integer()),
    details: Nullable(Type.String({ maxLength: 2000, description: 'What the reader was looking for' })),
  },
  {
    description: "A can't-find-my-book signal (SPEC 2.4 SearchMissRequest)",
    examples: [{ query: 'the lost book', result_count: 0 }],
  },
);

const VoteRequest = Type.Object(
  { feedback: Type.Union([Type.Literal('positive'), Type.Literal('negative')]) },
  {
    description: 'A reader’s verdict on a search (SPEC 2.4 VoteRequest)',
    examples: [{ feedback: 'positive' }],
  },
);

const Recorded = Type.Object({ status: Type.Literal('recorded') });
const created = { 201: Recorded };

/** What a can't-find-my-book report holds, from the API's JSON or the search page's plain form. */
export interface MissReport {
  query: string;
  result_count: number;
  sfid?: number | null;
  details?: string | null;
}

/** Stores a can't-find-my-book report (blank details are none), or answers the 429 of the writer's cap. */
export async function recordMiss(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  { query, result_count, sfid, details }: MissReport,
): Promise<void> {
  const miss = { query, result_count, sfid: sfid ?? null, details: details?.trim() || null };
  refuseIfOverCap(reply, 'miss', await services.signals.miss(miss, writerOf(request)));
}

/**
 * Search interaction signals (DESIGN.md): clicks, misses and votes, stored with the query and its
 * parsed parts so an operator can see what readers did not find and which searches went wrong.
 */
export const searchFeedbackRoutes: PublicRoutes = async (app, { services }) => {
  const { signals } = services;

  app.post(
    '/api/v1/search/feedback',
    {
      schema: {
        summary: 'Log a click on a search result',
        tags: ['api'],
        body: SearchFeedbackRequest,
        response: created,
      },
    },
    async (request, reply) => {
      const entry = absentAsNull(SearchFeedbackRequest, request.body);
      const admission = await signals.feedback(entry, writerOf(request));
      refuseIfOverCap(reply, 'feedback', admission);
      return reply.code(201).send({ status: 'recorded' as const });
    },
  );

  app.post(
    '/api/v1/search/miss',
    {
      schema: {
        summary: 'Log that a reader could not find a book',
        tags: ['api'],
        body: SearchMissRequest,
        response: created,
      },
    },
    async (request, reply) => {
      await recordMiss(services, request, reply, request.body);
      return reply.code(201).send({ status: 'recorded' as const });
    },
  );

  app.post(
    '/api/v1/search/:sfid/vote',
    {
      schema: {
        summary: 'Vote on a logged search',
        tags: ['api'],
        params: Type.Object({
          sfid: Integer({ minimum: 1, description: 'The search id result links carry' }),
        }),
        body: VoteRequest,
        response: created,
      },
    },
    async (request, reply) => {
      const outcome = await signals.vote(request.params.sfid, request.body.feedback, writerOf(request));
      if (outcome.kind === 'not_found') throw notFound('No search has this id.');
      refuseIfOverCap(reply, 'vote', outcome);
      return reply.code(201).send({ status: 'recorded' as const });
    },
  );
};
