import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { LIST_ID_PATTERN } from '../../../domain/list-ids.js';
import { MAX_SLUG_LENGTH } from '../../../domain/slug.js';
import { listPath } from '../../../services/lists.js';
import { qrPng, qrSvg } from '../../../services/qr.js';
import { notFound } from '../../errors.js';
import { type PublicRoutes, pageSchema } from '../public-routes.js';

const Format = Type.Union([Type.Literal('svg'), Type.Literal('png')], { description: 'Image format' });
const Image = Type.String({ description: 'The QR code image (SVG or PNG)' });

async function sendQr(reply: FastifyReply, url: string, format: 'svg' | 'png'): Promise<FastifyReply> {
  reply.header('cache-control', 'public, max-age=86400');
  if (format === 'svg') return reply.type('image/svg+xml').send(await qrSvg(url));
  return reply.type('image/png').send(await qrPng(url));
}

/**
 * QR codes for printing and sharing: a book's short link and a list's page. The code carries
 * `src=qr`, so the analytics show visits and clicks that came from a printed code.
 */
export const qrRoutes: PublicRoutes = async (app, { services }) => {
  const base = services.config.baseUrl;
  const { lists } = services;

  app.get(
    '/book/:slug/qr.:format',
    pageSchema({
      summary: "QR code of a book's short link (with src=qr)",
      params: Type.Object({
        slug: Type.String({ minLength: 1, maxLength: MAX_SLUG_LENGTH }),
        format: Format,
      }),
      response: { 200: Image },
    }),
    async (request, reply) => {
      const loaded = await services.pages.load(request.params.slug);
      if (!loaded) throw notFound('There is no book at this address.');
      return sendQr(reply, `${base}/b/${encodeURIComponent(loaded.book.slug)}?src=qr`, request.params.format);
    },
  );

  app.get(
    '/list/:id/qr.:format',
    pageSchema({
      summary: "QR code of a list's page",
      params: Type.Object({
        id: Type.String({ pattern: LIST_ID_PATTERN, description: 'The list id' }),
        format: Format,
      }),
      response: { 200: Image },
    }),
    async (request, reply) => {
      const found = await lists.get(request.params.id);
      if (!found) throw notFound('There is no list at this address.');
      return sendQr(reply, `${base}${listPath(found.list)}`, request.params.format);
    },
  );
};
