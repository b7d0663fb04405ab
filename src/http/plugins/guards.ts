import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isbot } from 'isbot';
import { HttpError } from '../errors.js';
import { PAGE_CONTENT_SECURITY_POLICY } from '../views/layout.js';

interface GuardsOptions {
  baseUrl: string;
}

const SELF_DESCRIBED_BOTS = /crawler|spider|scraper/i;

/**
 * SPEC 7 rule 4: known search, AI and monitoring bots, and anything calling itself a crawler. A request
 * with no User-Agent at all is a script, not a reader's browser, so it may read but never create.
 */
export function isAutomatedClient(userAgent: string | undefined): boolean {
  if (!userAgent?.trim()) return true;
  return isbot(userAgent) || SELF_DESCRIBED_BOTS.test(userAgent);
}

declare module 'fastify' {
  interface FastifyRequest {
    isAutomated: boolean;
  }
}

/**
 * Guards every route: CORS `*` (SPEC 4), the Referer rule (SPEC 7: a Referer equal to the bare
 * service origin is refused with 403) and the automated-client flag the handlers consult.
 */
async function guardsPlugin(app: FastifyInstance, options: GuardsOptions) {
  const origin = new URL(options.baseUrl).origin;
  await app.register(cors, { origin: '*', methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'] });
  // Read only by the routes that create or count (isbn, go, search, resolve): isbot's large regular
  // expression runs on first read, not on every request (book pages and assets never ask).
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
  // Our pages run only our own scripts; /docs (Swagger UI) sets its own policy.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff');
    const type = String(reply.getHeader('content-type') ?? '');
    if (
      type.startsWith('text/html') &&
      !request.url.startsWith('/docs') &&
      !reply.hasHeader('content-security-policy')
    ) {
      reply.header('content-security-policy', PAGE_CONTENT_SECURITY_POLICY);
      reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    }
    done(null, payload);
  });
}

export default fp(guardsPlugin, { name: 'booklink-guards' });
