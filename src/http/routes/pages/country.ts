import { Type } from 'typebox';
import { serializeCookie } from '../../../domain/cookies.js';
import { COUNTRY_COOKIE, normaliseCountry } from '../../../domain/storefronts.js';
import { servedOverHttps } from '../../security-headers.js';
import { type PublicRoutes, pageSchema } from '../public-routes.js';

/** A path on this site only: `//host` and `/\host` would leave it. */
export function sameOriginPath(back: string | undefined): string {
  if (!back?.startsWith('/') || back.startsWith('//') || back.startsWith('/\\')) return '/';
  return /[\r\n]/.test(back) ? '/' : back;
}

const YEAR_SECONDS = 365 * 86_400;

/**
 * `GET /country?country=GB&back=/book/…`: the country switcher (a plain form, so it works without
 * script). It remembers the country in a cookie, which every page, the links API and the embed read
 * after `?country=` (domain/storefronts.ts), and sends the reader back with 303. `country=auto` (or
 * none) forgets the choice.
 */
export const countryRoutes: PublicRoutes = async (app, { services }) => {
  app.get(
    '/country',
    pageSchema({
      summary: 'Choose whose shops the pages show (sets a cookie) and go back',
      querystring: Type.Object({
        country: Type.Optional(
          Type.String({ maxLength: 10, description: 'ISO 3166-1 alpha-2 code, or "auto" to forget' }),
        ),
        back: Type.Optional(Type.String({ maxLength: 2000, description: 'A path on this site' })),
      }),
      response: { 303: Type.Null({ description: 'Back to `back` (a path on this site), or home' }) },
    }),
    async (request, reply) => {
      const country = normaliseCountry(request.query.country);
      const cookie = serializeCookie(COUNTRY_COOKIE, country ?? '', {
        path: '/',
        maxAgeSeconds: country ? YEAR_SECONDS : 0,
        secure: servedOverHttps(services.config.baseUrl),
      });
      return reply
        .header('set-cookie', cookie)
        .header('cache-control', 'no-store')
        .redirect(sameOriginPath(request.query.back), 303);
    },
  );
};
