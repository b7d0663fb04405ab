import { PAGE_CONTENT_SECURITY_POLICY } from './views/layout.js';

/**
 * The security headers every response carries (docs/security.md), in one place: the hooks send
 * them on Fastify's answers, and the answers made before any hook runs (the router's and the HTTP
 * parser's refusals) take the same values from here.
 */

/** Pages may not be framed by other sites (clickjacking) unless a route says who may frame it. */
export const DEFAULT_FRAME_ANCESTORS = "'none'";

/** HTTPS only, for a year; sent only when BASE_URL is https (browsers ignore it over plain HTTP). */
const HSTS = 'max-age=31536000';

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

/** BASE_URL is https: cookies are `Secure` and responses carry HSTS. */
export const servedOverHttps = (baseUrl: string): boolean => baseUrl.startsWith('https:');

export type HeaderPairs = readonly (readonly [name: string, value: string])[];

/** The headers of every response: no type sniffing; HSTS when the service is served over https. */
export function responseHeaders(https: boolean): HeaderPairs {
  return https
    ? [
        ['x-content-type-options', 'nosniff'],
        ['strict-transport-security', HSTS],
      ]
    : [['x-content-type-options', 'nosniff']];
}

/** The headers of an HTML page: its content policy, framing and referrer rules. */
export function pageHeaders(frameAncestors = DEFAULT_FRAME_ANCESTORS): HeaderPairs {
  const headers: [string, string][] = [['content-security-policy', pagePolicy(frameAncestors)]];
  if (frameAncestors === DEFAULT_FRAME_ANCESTORS) headers.push(['x-frame-options', 'DENY']);
  headers.push(['referrer-policy', 'strict-origin-when-cross-origin']);
  return headers;
}

/** A redirect is never kept by a cache: each may carry a per-visit id or count a click. */
export const REDIRECT_CACHE_CONTROL = 'no-store';
