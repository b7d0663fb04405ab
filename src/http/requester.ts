import type { FastifyRequest } from 'fastify';
import type { Requester } from '../catalog/requester.js';
import { clientAddress } from './plugins/rate-limit.js';

/**
 * The client a request's provider calls are charged to (its share of the provider budgets): its
 * address as TRUST_PROXY resolves it, an IPv6 one as its /64, as the rate limits count it. Every
 * route that may reach a provider passes it to the service it calls.
 */
export function requesterOf(request: FastifyRequest): Requester {
  return clientAddress(request);
}
