import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isbot } from 'isbot';
import { boundedMemo } from '../../domain/bounded-memo.js';
import { HttpError } from '../errors.js';
import {
  DEFAULT_FRAME_ANCESTORS,
  pageHeaders,
  REDIRECT_CACHE_CONTROL,
  responseHeaders,
} from '../security-headers.js';
import { routedPath } from './api-keys.js';

interface GuardsOptions {
  baseUrl: string;
}

const SELF_DESCRIBED_BOTS = /crawler|spider|scraper/i;

/** A `charset` parameter of a Content-Type, quoted or not. */
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)/i;
/** The body encodings read as declared: UTF-8, and ASCII, which is UTF-8 too. */
const UTF8_CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii', 'ascii']);

/**
 * Whether a request's body is in an encoding the parsers read right: every body is read as UTF-8
 * (JSON is UTF-8 by RFC 8259, and the service's forms are sent so), so one declared in another
 * charset (`utf-16`, `iso-8859-1`) would be misread and is refused instead.
 */
export function declaresForeignCharset(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const charset = CHARSET.exec(contentType)?.[1];
  return charset !== undefined && !UTF8_CHARSETS.has(charset.toLowerCase());
}

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
    if (declaresForeignCharset(request.headers['content-type'])) {
      done(new HttpError(415, 'unsupported_charset', 'Send the request body in UTF-8 (charset=utf-8).'));
      return;
    }
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
  const always = responseHeaders(https);
  app.addHook('onSend', (request, reply, payload, done) => {
    for (const [name, value] of always) reply.header(name, value);
    const status = reply.statusCode;
    if (status >= 300 && status < 400) reply.header('cache-control', REDIRECT_CACHE_CONTROL);
    const type = String(reply.getHeader('content-type') ?? '');
    if (
      type.startsWith('text/html') &&
      !routedPath(request).startsWith('/docs') &&
      !reply.hasHeader('content-security-policy')
    ) {
      const frameAncestors = request.routeOptions.config?.frameAncestors ?? DEFAULT_FRAME_ANCESTORS;
      for (const [name, value] of pageHeaders(frameAncestors)) reply.header(name, value);
    }
    done(null, payload);
  });
}

export default fp(guardsPlugin, { name: 'booklink-guards' });
