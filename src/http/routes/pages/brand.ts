import { Type } from 'typebox';
import { brandStylesheet, LOGO_EXTENSIONS, parseAccentVersion } from '../../../domain/brand.js';
import { HttpError } from '../../errors.js';
import type { PublicRoutes } from '../public-routes.js';

/** The URL names the content (a hash, the colours): what it answers never changes, so it is cached for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The operator's logo and accent stylesheet, from this origin (the pages' CSP allows no inline style,
 * and a logo from elsewhere would tell a third party who reads which page).
 */
export const brandRoutes: PublicRoutes = async (app, { services }) => {
  app.get(
    '/brand/logo-:hash.:ext',
    {
      // Assets, like /static/ and /embed.js: not operations of the documented API.
      schema: {
        hide: true,
        summary: "The operator's logo (its content hash names it)",
        params: Type.Object({
          hash: Type.String({ pattern: '^[0-9a-f]{16,64}$' }),
          ext: Type.String({ pattern: '^(png|jpg|webp)$' }),
        }),
      },
    },
    async (request, reply) => {
      const logo = await services.brand.logo(request.params.hash);
      if (!logo || LOGO_EXTENSIONS[logo.contentType] !== request.params.ext)
        throw new HttpError(404, 'not_found', 'There is nothing at this address.');
      return reply
        .type(logo.contentType)
        .header('cache-control', IMMUTABLE)
        .header('x-content-type-options', 'nosniff')
        .send(logo.bytes);
    },
  );

  app.get(
    '/brand/theme-:version.css',
    {
      schema: {
        hide: true,
        summary: "The operator's accent colours as CSS custom properties",
        params: Type.Object({ version: Type.String({ maxLength: 13 }) }),
        response: { 200: Type.String() },
      },
    },
    async (request, reply) => {
      const accents = parseAccentVersion(request.params.version);
      if (!accents) throw new HttpError(404, 'not_found', 'There is nothing at this address.');
      return reply
        .type('text/css; charset=utf-8')
        .header('cache-control', IMMUTABLE)
        .send(brandStylesheet(accents));
    },
  );
};
