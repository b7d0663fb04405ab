import { SHORT_LINK_HOSTS } from '../../catalog/http-client.js';
import { STORE_RULES } from '../../domain/retailer-urls/index.js';
import { parseHttpUrl } from '../../domain/urls.js';

/** What the resolver needs from the outbound client: one bounded, host-allow-listed walk. */
export interface ShortLinkFollower {
  followShortLink(
    url: string,
    options: { retailerHosts?: readonly string[]; signal?: AbortSignal },
  ): Promise<string | null>;
}

/**
 * Hosts whose URLs the parser can read: a redirect walk stops at the first of these (never fetching
 * it). Short-link hosts are left out so a chain amzn.to → a.co keeps walking.
 */
export const RETAILER_HOSTS: readonly string[] = STORE_RULES.filter((rule) => !rule.shortLink).flatMap(
  (rule) => Object.keys(rule.hosts),
);

function hostMatches(hostname: string, hosts: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

/**
 * Whether `input` is a URL on one of the allow-listed short-link hosts. Parsed here rather than by
 * the retailer parser because the allow-list is configuration (tests allow their local fake host,
 * which the parser rightly refuses as a shop).
 */
export function isShortLink(input: string, hosts: readonly string[] = SHORT_LINK_HOSTS): boolean {
  const url = parseHttpUrl(input.trim());
  return url !== null && hostMatches(url.hostname, hosts);
}

export interface ExpandOptions {
  follower: ShortLinkFollower;
  /** Budget of the whole walk (every hop), so a slow shortener cannot hold a request. */
  timeoutMs: number;
}

/** The retailer URL behind a short link, or null when the walk fails or leaves the allowed hosts. */
export async function expandShortLink(url: string, options: ExpandOptions): Promise<string | null> {
  try {
    return await options.follower.followShortLink(url.trim(), {
      retailerHosts: RETAILER_HOSTS,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch {
    // A timeout or network failure only means the link stays unexpanded: not found, not an error.
    return null;
  }
}
