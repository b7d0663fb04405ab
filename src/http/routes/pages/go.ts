import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, onSendHookHandler } from 'fastify';
import { Type } from 'typebox';
import { normaliseSrc, SRC_PATTERN } from '../../../domain/partners.js';
import { MAX_SLUG_LENGTH } from '../../../domain/slug.js';
import { cdnCountry, readerCountry } from '../../../domain/storefronts.js';
import type { Services } from '../../../services/container.js';
import { HttpError } from '../../errors.js';
import { type GoReplay, type PlainClick, referrerHost } from '../../go-replay.js';
import { writerOf } from '../../plugins/rate-limit.js';
import { Integer } from '../../validation.js';
import { pageSchema } from '../public-routes.js';

/**
 * `/go/{slug}/{destination}` (DESIGN): counts the click, then 302 to that book's URL at that
 * destination with the operator's tag (or an active partner's, `partner=`). It never redirects to a host
 * that is not the destination's own or an override set for this book. The click is buffered, so the
 * redirect does not wait on a database write; with the click journal it waits for the journal's group
 * commit (one fsync for many clicks). Later plain clicks like one sent here are answered by the
 * replay, before Fastify, with the 302 this one was sent (go-replay.ts).
 */
export const goRoutes: FastifyPluginAsyncTypebox<{ services: Services; replay: GoReplay }> = async (
  app,
  { services, replay },
) => {
  // Drops with the loaded books the targets came from, and on what a plain click's answer reads besides.
  services.pages.onDrop((slug) => replay.forget(slug));
  services.events.on('access-codes-changed', () => replay.forget(null));
  services.events.on('brand-changed', () => replay.forget(null));
  const plainClicks = new WeakMap<FastifyRequest, PlainClick>();
  // A route hook, so it runs after the global ones: the headers are those every hook left.
  const keepForReplay: onSendHookHandler = (request, reply, payload, done) => {
    const click = plainClicks.get(request);
    if (click && reply.statusCode === 302) replay.record(click, reply.getHeaders());
    done(null, payload);
  };
  app.get(
    '/go/:slug/:destination',
    {
      ...pageSchema({
        summary: 'Count a click and go to the book at a destination',
        params: Type.Object({
          slug: Type.String({ minLength: 1, maxLength: MAX_SLUG_LENGTH }),
          destination: Type.String({ minLength: 1, maxLength: 100 }),
        }),
        querystring: Type.Object({
          sfid: Type.Optional(Integer({ minimum: 1 })),
          country: Type.Optional(
            Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Storefront country (ISO 3166-1 alpha-2)' }),
          ),
          partner: Type.Optional(
            Type.String({
              maxLength: 50,
              description:
                'Partner id: its tag where it has one for this store; unknown or inactive ids are ignored',
            }),
          ),
          src: Type.Optional(
            Type.String({
              pattern: SRC_PATTERN,
              description: 'Placement word (qr, newsletter, bio…), recorded with the click',
            }),
          ),
        }),
        response: { 302: Type.Null({ description: 'Redirect to the destination' }) },
      }),
      onSend: keepForReplay,
    },
    async (request, reply) => {
      // What the replay answers without Fastify: a GET without query string, cookie or body.
      const plain = replay.plain(request.raw);
      const mark = replay.mark();
      const access = await services.access.accessFor(request.headers.cookie);
      const { slug, destination } = request.params;
      // The same storefront the page showed: its links carry the country it chose.
      const country = readerCountry(request.query.country, request.headers, services.brand.defaultCountry());
      const partner = await services.partners.active(request.query.partner);
      const target = await services.pages.goTarget(slug, destination, access, country, partner);
      if (!target) throw new HttpError(404, 'link_not_found', 'This book has no link to that destination.');
      if (plain !== null) plainClicks.set(request, { key: plain.key, slug: plain.slug, mark, target });
      // Past its address's cap of clicks in the window the reader still goes to the store: only the
      // click is not stored (counted in /metrics as refused).
      const counted =
        !request.isAutomated && (await services.writes.admit('click', writerOf(request))).kind === 'admitted';
      if (counted) {
        // Resolves once the click is durable (journaled on disk), at once without a journal.
        await services.clicks.record({
          bookId: target.book.id,
          destinationId: target.destination.id,
          sfid: request.query.sfid ?? null,
          country: cdnCountry(request.headers) ?? country,
          referrerHost: referrerHost(request.headers.referer),
          at: new Date(),
          partnerId: partner?.id ?? null,
          src: normaliseSrc(request.query.src),
          storefront: target.destination.country ?? '',
          tagKind: target.tag,
        });
      }
      return reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer-when-downgrade')
        .redirect(target.url, 302);
    },
  );
};
