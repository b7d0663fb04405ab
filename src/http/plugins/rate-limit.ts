import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { CircuitBreaker } from '../../catalog/circuit-breaker.js';
import { LocalRateStore } from '../../services/local-rate-store.js';
import type { Redis } from '../../services/redis.js';
import type { Writer } from '../../services/write-limits.js';
import { HttpError } from '../errors.js';
import { isApiCall } from './api-keys.js';

interface RateLimitOptions {
  /** Requests per window per client IP without a key (SPEC 8: 20). */
  anonymous: number;
  /** Requests per window per API key (SPEC 8: 120). */
  keyed: number;
  /** Shared counters for several instances; null keeps them in this process. */
  redis: Redis | null;
  /** In front of every Redis call: while open, requests pass at once instead of waiting for timeouts. */
  breaker?: CircuitBreaker | null;
  windowMs?: number;
}

type Decision = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>;

// Browsers may read these from cross-origin responses only when told so.
const EXPOSED = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After';

/** The client's address as every limit counts it: an IPv4 address, or an IPv6 address's /64. */
export function clientAddress(request: FastifyRequest): string {
  // Only IPv6 addresses need normalising (to their /64 and one spelling); IPv4 is the common case.
  return request.ip.includes(':') ? normalizeIP(request.ip) : request.ip;
}

/** The client's address as a rate-limit bucket: `ip:<address>`. */
function addressBucket(request: FastifyRequest): string {
  return `ip:${clientAddress(request)}`;
}

/** The bucket a request is charged to: its key, or (without a valid one) its client IP. */
function bucketOf(request: FastifyRequest): string {
  return request.apiKey ? `key:${request.apiKey.id}` : addressBucket(request);
}

/**
 * Who the rows a request adds are charged to (`services.writes`): its address, counted like the
 * API's rate limit; nobody for a request with a valid API key, which its key's rate limit bounds.
 */
export function writerOf(request: FastifyRequest): Writer {
  return request.apiKey ? null : addressBucket(request);
}

function setHeaders(reply: FastifyReply, decision: Extract<Decision, { isAllowed: false }>): number {
  // Never "retry in 0 s": the window may have a few milliseconds left.
  const reset = Math.max(1, decision.ttlInSeconds);
  reply
    .header('x-ratelimit-limit', decision.max)
    .header('x-ratelimit-remaining', decision.remaining)
    .header('x-ratelimit-reset', reset)
    .header('access-control-expose-headers', EXPOSED);
  return reset;
}

/**
 * SPEC 5 and 8: every `/api/` request (CORS preflights excepted) counts against one fixed one-minute
 * window, per client IP without a key and per key with one, across all API routes together. The
 * counters live in Redis when configured (an atomic INCR script, so any number of instances enforce
 * one exact limit) and in memory otherwise (exact for one process). If Redis fails, requests are let
 * through and the failure is logged: an outage of the counter store must not take the API down.
 */
async function rateLimitPlugin(app: FastifyInstance, options: RateLimitOptions) {
  await app.register(rateLimit, {
    // Only the hook below applies limits: pages, /metrics and health checks are never limited.
    global: false,
    timeWindow: options.windowMs ?? 60_000,
    max: (request: FastifyRequest) => (request.apiKey ? options.keyed : options.anonymous),
    keyGenerator: bucketOf,
    ...(options.redis ? { redis: options.redis, nameSpace: 'rate-limit:' } : { store: LocalRateStore }),
  });
  const decide = app.createRateLimit();
  let storeFailing = false;

  const limit = async (request: FastifyRequest, reply: FastifyReply) => {
    // While Redis is down, waiting for each command to time out would slow every API call.
    if (options.redis && options.redis.status !== 'ready') {
      if (!storeFailing) request.log.error('redis is not connected; API requests pass unlimited');
      storeFailing = true;
      return;
    }
    // A Redis that is connected but does not answer: after a few timeouts the circuit opens.
    const breaker = options.redis ? options.breaker : null;
    if (breaker && !breaker.tryAcquire()) {
      if (!storeFailing) request.log.error('redis circuit open; API requests pass unlimited');
      storeFailing = true;
      return;
    }
    let decision: Decision;
    try {
      decision = await decide(request);
      breaker?.success();
      storeFailing = false;
    } catch (error) {
      breaker?.failure();
      if (!storeFailing)
        request.log.error({ err: error }, 'rate-limit store failed; requests pass unlimited');
      storeFailing = true;
      return;
    }
    if (decision.isAllowed) return;
    const reset = setHeaders(reply, decision);
    if (!decision.isExceeded) return;
    const keyed = request.apiKey !== null;
    app.metrics.rateLimitRejections.inc({ client: keyed ? 'keyed' : 'anonymous' });
    reply.header('retry-after', reset);
    throw new HttpError(
      429,
      'rate_limited',
      `Rate limit exceeded: ${decision.max} requests per minute ${keyed ? 'for this API key' : 'per IP address without an API key'}. Retry in ${reset} s.`,
    );
  };

  // A callback hook: pages pass at once, without a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isApiCall(request)) {
      done();
      return;
    }
    limit(request, reply).then(() => done(), done);
  });
}

export default fp(rateLimitPlugin, {
  name: 'booklink-rate-limit',
  dependencies: ['booklink-metrics', 'booklink-api-keys'],
});
