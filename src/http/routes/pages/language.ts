import { Type } from 'typebox';
import { serializeCookie } from '../../../domain/cookies.js';
import { LANGUAGE_COOKIE, READER_LANGUAGES } from '../../../domain/reader-languages.js';
import { sameOriginPath } from '../../i18n/switcher.js';
import { servedOverHttps } from '../../security-headers.js';
import { type PublicRoutes, pageSchema } from '../public-routes.js';

const YEAR_SECONDS = 365 * 24 * 3600;

/**
 * `/language?lang=de&back=/book/…` (issue 44): the language switcher on every page. Plain links, so
 * it works without JavaScript: the choice is kept in a cookie and the reader sent back, 303, to the
 * page they were on. `back` must be a path on this site; anything else goes home (no open redirect).
 */
export const languageRoutes: PublicRoutes = async (app, { services }) => {
  app.get(
    '/language',
    pageSchema({
      summary: "Choose the reader pages' language (a cookie), then go back to the page",
      querystring: Type.Object({
        lang: Type.Union(
          READER_LANGUAGES.map((code) => Type.Literal(code)),
          { description: 'The language: en, de, fr, es, it, nl, pt or ja' },
        ),
        back: Type.Optional(
          Type.String({ maxLength: 2000, description: 'A path on this site to return to; default /' }),
        ),
      }),
      response: { 303: Type.Null({ description: 'Back to the page, now in the chosen language' }) },
    }),
    async (request, reply) =>
      reply
        .header(
          'set-cookie',
          serializeCookie(LANGUAGE_COOKIE, request.query.lang, {
            path: '/',
            maxAgeSeconds: YEAR_SECONDS,
            secure: servedOverHttps(services.config.baseUrl),
          }),
        )
        .header('cache-control', 'no-store')
        .redirect(sameOriginPath(request.query.back), 303),
  );
};
