import { boundedMemo } from './bounded-memo.js';
import { readCookie } from './cookies.js';
import type { Destination } from './links.js';

/**
 * Countries (DESIGN: buy, borrow and listen by region). A destination sells in its `countries`, or
 * everywhere when it names none; a country storefront (stored with its destination, keyed by its id)
 * replaces the destination's base URL and template for readers in that country; everything else
 * (group, name, priority, the /go/ host check) works on the regional copy unchanged.
 */

/** Whether a reader in `country` is offered this destination: never another country's own shop. */
export function sellsIn(destination: Destination, country: string | null): boolean {
  if (destination.countries.length === 0) return true;
  return country !== null && destination.countries.includes(country);
}

/**
 * The destination as a reader in `country` should see it: its storefront there, or the destination
 * itself. The regional copy carries its country, so only a tag given for that storefront
 * (`AFFILIATE_TAGS=amazon.GB=tag-21`) is applied to it: a US tag earns nothing in another store.
 */
export function forCountry(destination: Destination, country: string | null): Destination {
  const storefront = country ? destination.storefronts[country] : undefined;
  if (!storefront || !country) return destination;
  return {
    ...destination,
    baseUrl: storefront.baseUrl || destination.baseUrl,
    urlTemplate: storefront.template,
    affiliateTag: '',
    country,
  };
}

/** The destinations a reader in `country` is offered, each as its storefront there. */
export function destinationsFor(destinations: readonly Destination[], country: string | null): Destination[] {
  return destinations.filter((d) => sellsIn(d, country)).map((d) => forCountry(d, country));
}

const CDN_COUNTRY_HEADERS = [
  'cf-ipcountry',
  'cloudfront-viewer-country',
  'fastly-geo-country',
  'x-vercel-ip-country',
  'x-country-code',
] as const;

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const COUNTRY = /^[A-Za-z]{2}$/;

/** A two-letter country code, upper-cased, or null for anything else. */
export function normaliseCountry(value: string | null | undefined): string | null {
  return value && COUNTRY.test(value.trim()) ? value.trim().toUpperCase() : null;
}

/** The cookie the country switcher sets (`/country`). */
export const COUNTRY_COOKIE = 'booklink_country';

/** A CDN's country header (Cloudflare, CloudFront, Fastly, Vercel), when one is present. */
export function cdnCountry(headers: Headers): string | null {
  for (const name of CDN_COUNTRY_HEADERS) {
    const value = headers[name];
    // Cloudflare answers XX for unknown and T1 for Tor: not countries.
    if (typeof value === 'string' && COUNTRY.test(value) && value.toUpperCase() !== 'XX')
      return value.toUpperCase();
  }
  return null;
}

/** The region of the reader's first language with one: `en-GB,en;q=0.8` → GB. */
export function acceptLanguageCountry(header: string | undefined): string | null {
  return header ? regionOfLanguages(header) : null;
}

/** Browsers send one of a few Accept-Language values; each is read once (see boundedMemo). */
const regionOfLanguages = boundedMemo((header): string | null => {
  for (const part of header.split(',')) {
    const region = /^\s*[a-z]{2,3}[-_]([a-z]{2})\b/i.exec(part)?.[1];
    if (region) return region.toUpperCase();
  }
  return null;
});

/**
 * `?country=` first (a reader's or a link's choice), then the country switcher's cookie, then the
 * CDN's country, then the browser's language, then the operator's `DEFAULT_COUNTRY` (`fallback`).
 */
export function readerCountry(
  queryCountry: string | undefined,
  headers: Headers,
  fallback: string | null = null,
): string | null {
  const chosen = normaliseCountry(queryCountry);
  if (chosen) return chosen;
  const cookie = typeof headers.cookie === 'string' ? headers.cookie : undefined;
  const remembered = cookie ? normaliseCountry(readCookie(cookie, COUNTRY_COOKIE)) : null;
  if (remembered) return remembered;
  const acceptLanguage = headers['accept-language'];
  return (
    cdnCountry(headers) ??
    acceptLanguageCountry(typeof acceptLanguage === 'string' ? acceptLanguage : undefined) ??
    fallback
  );
}

/**
 * The countries the switcher offers: the US (the destinations' own stores), every country a
 * destination has a storefront in, and every country a destination sells only in. Read from the
 * destinations, so a storefront the operator adds in the admin area is offered at once.
 */
export function switcherCountries(destinations: readonly Destination[]): string[] {
  const countries = new Set(['US']);
  for (const destination of destinations) {
    for (const country of Object.keys(destination.storefronts)) countries.add(country);
    for (const country of destination.countries) countries.add(country);
  }
  return [...countries];
}

const displayNames = new Map<string, Intl.DisplayNames>();

/** A country's name ("United Kingdom" in English), from the runtime's CLDR data. */
export function countryName(code: string, locale = 'en'): string {
  let names = displayNames.get(locale);
  if (!names) {
    names = new Intl.DisplayNames([locale], { type: 'region' });
    displayNames.set(locale, names);
  }
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}
