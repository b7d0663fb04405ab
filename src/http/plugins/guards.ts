import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isbot } from 'isbot';
import { boundedMemo } from '../../domain/bounded-memo.js';
import { HttpError } from '../errors.js';
import { PAGE_CONTENT_SECURITY_POLICY } from '../views/layout.js';
import { routedPath } from './api-keys.js';

interface GuardsOptions {
  baseUrl: string;
}

/** Pages may not be framed by other sites (clickjacking) unless a route says who may frame it. */
const DEFAULT_FRAME_ANCESTORS = "'none'";
/** The page policy with a route's `frame-ancestors`, built once per value (routes name a few). */
const pagePolicies = new Map<string, string>();
function pagePolicy(frameAncestors: string): string {
  let policy = pagePolicies.get(frameAncestors);
  if (policy === undefined) {
    policy = `${PAGE_CONTENT_SECURITY_POLICY}; frame-ancestors ${frameAncestors}`;
    pagePolicies.set(frameAncestors, policy);
  }
  return policy;
}

/** HTTPS only, for a year; sent only when BASE_URL is https (browsers ignore it over plain HTTP). */
const HSTS = 'max-age=31536000';

const SELF_DESCRIBED_BOTS = /crawler|spider|scraper/i;

/**
 * SPEC 7 rule 4: known search, AI and monitoring bots, and anything calling itself a crawler. A request
 * with no User-Agent at all is a script, not a reader's browser, so it may read but never create.
 */
export function isAutomatedClient(userAgent: string | undefined): boolean {
  if (!userAgent?.trim()) return true;
  return automatedUserAgent(userAgent);
}

/** isbot's large regular expression costs microseconds; readers' browsers send a handful of strings. */
const automatedUserAgent = boundedMemo(
  (userAgent) => isbot(userAgent) || SELF_DESCRIBED_BOTS.test(userAgent),
  { maxEntries: 1000 },
);

declare module 'fastify' {
  interface FastifyRequest {
    isAutomated: boolean;
  }
  interface FastifyContextConfig {
    /**
     * Who may frame this route's pages: the CSP `frame-ancestors` sources (`*` for an embed meant for
     * any site). Default `'none'`, with `X-Frame-Options: DENY` for older browsers.
     */
    frameAncestors?: string;
  }
}

/**
 * Guards every route: CORS `*` (SPEC 4), the Referer rule (SPEC 7: a Referer equal to the bare
 * service origin is refused with 403) and the automated-client flag the handlers consult.
 */
async function guardsPlugin(app: FastifyInstance, options: GuardsOptions) {
  const origin = new URL(options.baseUrl).origin;
  const https = origin.startsWith('https:');
  await app.register(cors, { origin: '*', methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'] });
  // Read only by the routes that create or count (isbn, go, book pages, search, resolve), never by
  // assets; the answer per User-Agent is remembered (automatedUserAgent).
  app.decorateRequest('isAutomated', {
    getter(this: FastifyRequest) {
      return isAutomatedClient(this.headers['user-agent']);
    },
  });
  // Callback hooks, not async ones: they run on every request and need no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.headers.referer === origin) {
      done(
        new HttpError(403, 'referer_refused', 'Requests referred by the bare service origin are refused.'),
      );
      return;
    }
    done();
  });
  // Our pages run only our own scripts and are framed only where a route allows it; /docs (Swagger
  // UI) sets its own policy, and so may any route that sets a Content-Security-Policy itself.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    if (https) reply.header('strict-transport-security', HSTS);
    const type = String(reply.getHeader('content-type') ?? '');
    if (
      type.startsWith('text/html') &&
      !routedPath(request).startsWith('/docs') &&
      !reply.hasHeader('content-security-policy')
    ) {
      const frameAncestors = request.routeOptions.config?.frameAncestors ?? DEFAULT_FRAME_ANCESTORS;
      reply.header('content-security-policy', pagePolicy(frameAncestors));
      if (frameAncestors === DEFAULT_FRAME_ANCESTORS) reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    }
    done(null, payload);
  });
}

export default fp(guardsPlugin, { name: 'booklink-guards' });
