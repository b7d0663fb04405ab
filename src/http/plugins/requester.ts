import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { asRequester } from '../../catalog/requester.js';

/** The client a request is charged to: its address, an IPv6 one as its /64 (one machine's usual share). */
export function requesterOf(request: FastifyRequest): string {
  return request.ip.includes(':') ? normalizeIP(request.ip) : request.ip;
}

/**
 * Every route's work runs as done for the request's client address, so the provider budget can
 * hold each address to its share of every provider (see catalog/requester.ts). The hook wraps the
 * rest of the request from validation on (bodies are parsed by then, so their stream events do not
 * lose the context); its own cost is one async-context frame.
 */
async function requesterPlugin(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    asRequester(requesterOf(request), done);
  });
}

export default fp(requesterPlugin, { name: 'booklink-requester' });
