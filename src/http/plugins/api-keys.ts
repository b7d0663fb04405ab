import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  type ApiKeyDirectory,
  type ApiKeyIdentity,
  type UsageRecorder,
  usageSource,
} from '../../services/container.js';
import { HttpError } from '../errors.js';

interface ApiKeysOptions {
  apiKeys: ApiKeyDirectory;
  usage: UsageRecorder;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this API request carries (null: anonymous). Only set on `/api/` routes. */
    apiKey: ApiKeyIdentity | null;
    /** An `X-API-Key` was sent but is unknown, revoked or malformed; answered 401 after rate limiting. */
    apiKeyRejected: boolean;
  }
}

export const API_KEY_HEADER = 'x-api-key';

/**
 * The path a request was routed on: the matched route's pattern, else the path of the target. Never
 * the raw target: an absolute-form target (`GET http://host/api/v1/search HTTP/1.1`) is routed like
 * `/api/v1/search` and must be treated like it.
 */
export function routedPath(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route !== undefined) return route;
  if (request.url.startsWith('/')) return request.url;
  try {
    return new URL(request.url).pathname;
  } catch {
    return request.url;
  }
}

/**
 * The one decision of what is an API call: keys, limits, usage and JSON errors follow it. CORS
 * preflights are exempt.
 */
export function isApiCall(request: FastifyRequest): boolean {
  return routedPath(request).startsWith('/api/') && request.method !== 'OPTIONS';
}

/**
 * A route guard for key-only endpoints (the ingest API): 401 without a key, 403 with a key that lacks
 * the scope. Use as `{ preHandler: requireScope('ingest') }`.
 */
export function requireScope(scope: string) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.apiKey) {
      throw new HttpError(
        401,
        'api_key_required',
        `This endpoint needs an X-API-Key with the "${scope}" scope.`,
      );
    }
    if (!request.apiKey.scopes.includes(scope)) {
      throw new HttpError(403, 'api_key_scope', `This API key lacks the "${scope}" scope.`);
    }
  };
}

/**
 * Identifies the `X-API-Key` of every API call (a missing or empty header is anonymous), rejects
 * unknown and revoked keys with 401, and counts each admitted call for the operator's usage view.
 * The 401 comes in `preParsing`, after the rate limiter's `onRequest` hook has charged the client's
 * IP, so made-up keys cannot be tried (nor the database queried) faster than the anonymous limit.
 */
async function apiKeysPlugin(app: FastifyInstance, options: ApiKeysOptions) {
  app.decorateRequest('apiKey', null);
  app.decorateRequest('apiKeyRejected', false);

  const identify = async (request: FastifyRequest, raw: string | string[]) => {
    const identity = typeof raw === 'string' ? await options.apiKeys.lookup(raw.trim()) : null;
    if (identity) request.apiKey = identity;
    else request.apiKeyRejected = true;
  };

  // Callback hooks, not async ones: they run on every request (pages too), and only an API call
  // carrying a key has anything to wait for.
  app.addHook('onRequest', (request, _reply, done) => {
    const raw = isApiCall(request) ? request.headers[API_KEY_HEADER] : undefined;
    if (raw === undefined || raw === '') {
      done();
      return;
    }
    identify(request, raw).then(() => done(), done);
  });

  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.apiKeyRejected) {
      done(new HttpError(401, 'api_key_invalid', 'The X-API-Key is unknown or has been revoked.'));
      return;
    }
    done(null, payload);
  });

  app.addHook('onResponse', (request, reply, done) => {
    // Refused calls (401, 429) are not usage, and counting them would let a flood grow the table.
    if (isApiCall(request) && reply.statusCode !== 401 && reply.statusCode !== 429) {
      const query = request.query as Record<string, unknown> | undefined;
      options.usage.record({
        keyId: request.apiKey?.id ?? null,
        source: usageSource(query?.source),
        route: request.routeOptions.url ?? 'unmatched',
        at: new Date(),
      });
    }
    done();
  });
}

export default fp(apiKeysPlugin, { name: 'booklink-api-keys' });
