import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../errors.js';
import { accessCodeRoutes } from './access-codes.js';
import { affiliateRoutes } from './affiliate.js';
import { analyticsRoutes } from './analytics.js';
import { auditRoutes } from './audit.js';
import { authRoutes } from './auth.js';
import { bookLinkRoutes } from './book-links.js';
import { bookRoutes } from './books.js';
import { brandRoutes } from './brand.js';
import { type AdminRoutes, decorateAdminRequest, sameToken } from './context.js';
import { LOGIN_COOKIE, readCookie, SESSION_COOKIE } from './cookies.js';
import { destinationRoutes } from './destinations.js';
import { editionRoutes } from './editions.js';
import { keyRoutes } from './keys.js';
import { listItemRoutes } from './list-items.js';
import { listRoutes } from './lists.js';
import { offerRoutes } from './offers.js';
import { partnerRoutes } from './partners.js';
import { pinRoutes } from './pins.js';
import { userRoutes } from './users.js';

/** `a=1&a=2` keeps the last value (a checked box overrides its hidden "false"); empty fields take defaults. */
export function parseForm(body: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    if (value === '') delete values[key];
    else values[key] = value;
  }
  return values;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function formToken(request: FastifyRequest): string | null {
  const body = request.body as { _csrf?: unknown } | null | undefined;
  return typeof body?._csrf === 'string' ? body._csrf : null;
}

/**
 * The whole admin area, under `/admin`. Two area-wide hooks guard every route in it, so no handler
 * can forget: no session → 303 to the login form; a wrong role → 403; and every non-GET request must
 * carry the session's CSRF token (the login form a token tied to its own cookie) or it is refused.
 */
export const adminRoutes: AdminRoutes = async (app, options) => {
  const auth = options.services.admin.auth;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (_request, body, done) => done(null, parseForm(String(body))),
  );
  decorateAdminRequest(app);

  app.addHook('onRequest', async (request, reply) => {
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    request.adminSession = token ? await auth.sessionFor(token) : null;
    const config = request.routeOptions.config;
    if (config.adminPublic) return;
    if (!request.adminSession) return reply.header('cache-control', 'no-store').redirect('/admin/login', 303);
    if (config.adminRole === 'admin' && request.adminSession.user.role !== 'admin') {
      throw new HttpError(403, 'admin_role_required', 'Only an admin may open this page.');
    }
  });

  app.addHook('preValidation', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    const expected = request.routeOptions.config.adminPublic
      ? readCookie(request.headers.cookie, LOGIN_COOKIE)
      : (request.adminSession?.csrfToken ?? null);
    if (!sameToken(formToken(request), expected)) {
      throw new HttpError(
        403,
        'csrf_refused',
        'This form has expired. Go back, reload the page and try again.',
      );
    }
  });

  for (const routes of [
    authRoutes,
    analyticsRoutes,
    bookRoutes,
    bookLinkRoutes,
    editionRoutes,
    destinationRoutes,
    pinRoutes,
    listRoutes,
    listItemRoutes,
    accessCodeRoutes,
    keyRoutes,
    partnerRoutes,
    affiliateRoutes,
    brandRoutes,
    offerRoutes,
    userRoutes,
    auditRoutes,
  ]) {
    await app.register(routes, options);
  }
};
