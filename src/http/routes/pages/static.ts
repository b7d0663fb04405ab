import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sendCompressed } from '../../compressed.js';
import { HttpError } from '../../errors.js';
import { findStaticAsset, STATIC_IMMUTABLE_CACHE, STATIC_SHORT_CACHE } from '../../views/assets.js';

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml)|image\/svg)/;

/** `web/` files, fingerprinted: a request carrying the current hash may be cached for a year. */
export const staticRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/static/:name',
    {
      schema: {
        hide: true,
        params: Type.Object({ name: Type.String({ maxLength: 100 }) }),
        querystring: Type.Object({ v: Type.Optional(Type.String({ maxLength: 64 })) }),
      },
    },
    async (request, reply) => {
      const asset = findStaticAsset(request.params.name);
      if (!asset) throw new HttpError(404, 'asset_not_found', 'No such file.');
      const cache = request.query.v === asset.hash ? STATIC_IMMUTABLE_CACHE : STATIC_SHORT_CACHE;
      reply.type(asset.contentType).header('cache-control', cache).header('etag', `"${asset.hash}"`);
      // Text compresses well; images and fonts are compressed formats already.
      if (!COMPRESSIBLE.test(asset.contentType)) return reply.send(asset.body);
      return sendCompressed(request, reply, asset.compressed);
    },
  );
};
