import { type Dispatcher, request } from 'undici';
import { parseHttpUrl } from '../domain/urls.js';

/** Following a short link (amzn.to/…) to the retailer URL behind it: the one user-supplied URL we touch. */

/** Short-link hosts whose redirects we may follow to find the retailer URL behind them. */
export const SHORT_LINK_HOSTS: readonly string[] = [
  'amzn.to',
  'amzn.eu',
  'amzn.asia',
  'a.co',
  'adbl.co',
  'bit.ly',
  'buff.ly',
  'geni.us',
  'ow.ly',
  'tinyurl.com',
];

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface FollowOptions {
  /** Hosts of retailers whose URLs we can parse; the first hop landing on one ends the walk. */
  retailerHosts?: readonly string[];
  signal?: AbortSignal;
}

export function hostMatches(hostname: string, hosts: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return hosts.some(
    (allowed) => host === allowed || host === `www.${allowed}` || host.endsWith(`.${allowed}`),
  );
}

export interface HopOptions {
  dispatcher: Dispatcher;
  timeoutMs: number;
  userAgent: string;
  signal?: AbortSignal;
  /** Told of a hop that failed (network, timeout); the walk then ends with no answer. */
  onFailure: () => void;
}

/**
 * Walks a short link without reading any body: at most five HEAD/GET hops, every one on a short-link
 * host. Returns the first URL that lands on a retailer host (never fetched), or null when a hop leaves
 * the allowed hosts, the chain is too long, or a host does not redirect.
 */
export async function followShortLink(
  url: string,
  shortLinkHosts: readonly string[],
  retailerHosts: readonly string[],
  hop: HopOptions,
): Promise<string | null> {
  let current = parseHttpUrl(url);
  for (let count = 0; current && count <= MAX_REDIRECTS; count++) {
    if (hostMatches(current.hostname, retailerHosts)) return current.href;
    if (count === MAX_REDIRECTS || !hostMatches(current.hostname, shortLinkHosts)) return null;
    const location = await redirectTarget(current, hop);
    current = location ? parseHttpUrl(location, current) : null;
  }
  return null;
}

async function redirectTarget(url: URL, hop: HopOptions): Promise<string | null> {
  const { signal } = hop;
  for (const method of ['HEAD', 'GET'] as const) {
    const timeout = AbortSignal.timeout(hop.timeoutMs);
    try {
      const response = await request(url, {
        method,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        dispatcher: hop.dispatcher,
        headers: { 'user-agent': hop.userAgent },
      });
      // The body of a redirect is never needed: drop it (any body beyond a byte closes the socket).
      await response.body.dump({ limit: 1 }).catch(() => undefined);
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode) && location) {
        return Array.isArray(location) ? (location[0] ?? null) : location;
      }
      // Some shorteners refuse HEAD; try once more with GET.
      if (method === 'HEAD' && (response.statusCode === 405 || response.statusCode === 501)) continue;
      return null;
    } catch (error) {
      hop.onFailure();
      if (signal?.aborted) throw error;
      return null;
    }
  }
  return null;
}
