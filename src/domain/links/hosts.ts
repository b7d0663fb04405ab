import { PLACEHOLDER, PLACEHOLDER_IN_HOST, parseWebUrl, templateAlternatives } from './templates.js';
import type { Destination, LinkOptions } from './types.js';

// Affiliate tags and host allow-list

export function affiliateTagFor(destination: Destination, options: LinkOptions = {}): string | null {
  if (destination.country)
    return options.affiliateTags?.[`${destination.slug}.${destination.country}`]?.trim() || null;
  return options.affiliateTags?.[destination.slug]?.trim() || destination.affiliateTag.trim() || null;
}

export function withAffiliateParam(url: string, destination: Destination, tag: string | null): string {
  if (!tag || !destination.affiliateParam) return url;
  const parsed = new URL(url);
  parsed.searchParams.set(destination.affiliateParam, tag);
  return parsed.toString();
}

const bareHost = (host: string) => host.toLowerCase().replace(/^www\./, '');

/** Hosts a destination links to: its base URL's and its template's (placeholders never sit in a host). */
export function destinationHosts(destination: Destination): Set<string> {
  const hosts = new Set<string>();
  const candidates = [destination.baseUrl, ...templateAlternatives(destination.urlTemplate)];
  for (const candidate of candidates) {
    if (PLACEHOLDER_IN_HOST.test(candidate)) continue;
    const url = parseWebUrl(candidate.replace(PLACEHOLDER, 'x'));
    if (url) hosts.add(bareHost(url.hostname));
  }
  return hosts;
}

function hostOf(url: string): string | null {
  const parsed = parseWebUrl(url);
  return parsed ? bareHost(parsed.hostname) : null;
}

/**
 * Whether `/go/` may redirect to `url` for this destination: its host must be one of the destination's
 * own hosts (`www.` ignored, subdomains not implied) or the host of an explicit per-book URL.
 */
export function isAllowedRedirect(
  url: string,
  destination: Destination,
  explicitUrls: readonly string[] = [],
): boolean {
  const host = hostOf(url);
  if (!host) return false;
  if (destinationHosts(destination).has(host)) return true;
  return explicitUrls.some((explicit) => hostOf(explicit) === host);
}

/** Applies the destination's tag to a URL that is not its own template's, but only on its own hosts. */
export function tagIfOwnHost(url: string, destination: Destination, options: LinkOptions): string {
  const host = hostOf(url);
  if (!host || !destinationHosts(destination).has(host)) return url;
  return withAffiliateParam(url, destination, affiliateTagFor(destination, options));
}
