import { Type } from 'typebox';
import { accessCookieHeader } from '../../../services/access-codes.js';
import { servedOverHttps } from '../../security-headers.js';
import { renderAccessPage } from '../../views/access-page.js';
import { HtmlPage, type PublicRoutes, pageSchema } from '../public-routes.js';

/**
 * `/access/{code}` (DESIGN): a patron link. An active code sets a signed cookie for its
 * cookie_ttl_hours and says what it unlocked; an unknown or inactive code says so and sets nothing.
 */
export const accessRoutes: PublicRoutes = async (app, { services }) => {
  app.get(
    '/access/:code',
    pageSchema({
      summary: 'Open an access code: unlocks its private destinations on book pages',
      params: Type.Object({ code: Type.String({ minLength: 1, maxLength: 100 }) }),
      response: {
        200: HtmlPage,
        404: Type.String({ description: 'Unknown code' }),
        410: Type.String({ description: 'Inactive code' }),
      },
    }),
    async (request, reply) => {
      const outcome = await services.access.open(request.params.code, request.headers.cookie);
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      if (outcome.kind === 'opened') {
        reply.header(
          'set-cookie',
          accessCookieHeader(outcome.cookie, outcome.maxAgeSeconds, servedOverHttps(services.config.baseUrl)),
        );
      }
      const status = outcome.kind === 'opened' ? 200 : outcome.kind === 'inactive' ? 410 : 404;
      return reply.code(status).send(renderAccessPage(outcome, await services.brand.current()));
    },
  );
};
