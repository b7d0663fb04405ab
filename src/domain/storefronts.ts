import { boundedMemo } from './bounded-memo.js';
import type { Destination } from './links.js';

/**
 * Country storefronts of the stores that have them (DESIGN: buy, borrow and listen by region). A
 * storefront replaces the destination's base URL and template for readers in that country; everything
 * else (group, name, priority, the /go/ host check) works on the regional copy unchanged.
 */
interface Storefront {
  baseUrl: string;
  template: string;
}

function amazon(domain: string): Storefront {
  const base = `https://www.amazon.${domain}`;
  return { baseUrl: base, template: `${base}/dp/{isbn10} || ${base}/s?k={title_author}&i=stripbooks` };
}

function kindle(domain: string): Storefront {
  const base = `https://www.amazon.${domain}`;
  return { baseUrl: base, template: `${base}/s?k={title_author}&i=digital-text` };
}

function kobo(country: string, language: string): Storefront {
  const base = `https://www.kobo.com/${country}/${language}/search?query=`;
  return { baseUrl: 'https://www.kobo.com', template: `${base}{isbn13} || ${base}{title_author}` };
}

function audible(domain: string): Storefront {
  const base = `https://www.audible.${domain}`;
  return { baseUrl: base, template: `${base}/search?keywords={title_author}` };
}

function apple(country: string): Storefront {
  return {
    baseUrl: 'https://books.apple.com',
    template: `https://books.apple.com/${country}/book/id{apple_books}`,
  };
}

const AMAZON_DOMAINS: Readonly<Record<string, string>> = {
  GB: 'co.uk',
  IE: 'co.uk',
  DE: 'de',
  AT: 'de',
  FR: 'fr',
  BE: 'com.be',
  IT: 'it',
  ES: 'es',
  NL: 'nl',
  SE: 'se',
  PL: 'pl',
  CA: 'ca',
  MX: 'com.mx',
  BR: 'com.br',
  AU: 'com.au',
  IN: 'in',
  JP: 'co.jp',
};

const KOBO_LANGUAGES: Readonly<Record<string, string>> = {
  GB: 'en',
  IE: 'en',
  CA: 'en',
  AU: 'en',
  NZ: 'en',
  DE: 'de',
  FR: 'fr',
  IT: 'it',
  ES: 'es',
  NL: 'nl',
};

const AUDIBLE_DOMAINS: Readonly<Record<string, string>> = {
  GB: 'co.uk',
  IE: 'co.uk',
  DE: 'de',
  FR: 'fr',
  IT: 'it',
  ES: 'es',
  CA: 'ca',
  AU: 'com.au',
  IN: 'in',
  JP: 'co.jp',
};

function table(
  countries: Readonly<Record<string, string>>,
  make: (value: string, country: string) => Storefront,
): Record<string, Storefront> {
  return Object.fromEntries(
    Object.entries(countries).map(([country, value]) => [country, make(value, country)]),
  );
}

export const STOREFRONTS: Readonly<Record<string, Readonly<Record<string, Storefront>>>> = {
  amazon: table(AMAZON_DOMAINS, amazon),
  kindle: table(AMAZON_DOMAINS, kindle),
  kobo: table(KOBO_LANGUAGES, (language, country) => kobo(country.toLowerCase(), language)),
  audible: table(AUDIBLE_DOMAINS, audible),
  'apple-books': table(
    Object.fromEntries(
      ['GB', 'IE', 'CA', 'AU', 'NZ', 'DE', 'FR', 'IT', 'ES', 'NL', 'JP', 'IN'].map((c) => [c, c]),
    ),
    (country) => apple(country.toLowerCase()),
  ),
  bookshop: {
    GB: {
      baseUrl: 'https://uk.bookshop.org',
      template:
        'https://uk.bookshop.org/a/{affiliate}/{isbn13} || https://uk.bookshop.org/book/{isbn13} || https://uk.bookshop.org/search?keywords={title_author}',
    },
  },
};

/**
 * The countries where a destination has a storefront of its own, in order. The affiliate settings read
 * the storefront list only through this (services/affiliate-tags.ts), so it can move to a table.
 */
export function storefrontCountries(slug: string): string[] {
  return Object.keys(STOREFRONTS[slug] ?? {}).sort();
}

/**
 * The destination as a reader in `country` should see it: its storefront there, or the destination
 * itself. The regional copy carries its country, so only a tag given for that storefront
 * (`AFFILIATE_TAGS=amazon.GB=tag-21`) is applied to it: a US tag earns nothing in another store.
 */
export function forCountry(destination: Destination, country: string | null): Destination {
  const storefront = country ? STOREFRONTS[destination.slug]?.[country] : undefined;
  if (!storefront || !country) return destination;
  return {
    ...destination,
    baseUrl: storefront.baseUrl,
    urlTemplate: storefront.template,
    affiliateTag: '',
    country,
  };
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

/** `?country=` first (a reader's or a link's choice), then the CDN's country, then the browser's language. */
export function readerCountry(queryCountry: string | undefined, headers: Headers): string | null {
  if (queryCountry && COUNTRY.test(queryCountry)) return queryCountry.toUpperCase();
  const acceptLanguage = headers['accept-language'];
  return (
    cdnCountry(headers) ??
    acceptLanguageCountry(typeof acceptLanguage === 'string' ? acceptLanguage : undefined)
  );
}
