import { parseHttpUrl } from './urls.js';
/**
 * Offers: what a store says it asks for a book in one country (price and direct link), and whether a
 * library copy can be borrowed (issue 47). Read in the background from the stores' own APIs and
 * stored with the time they were read; pages show only offers younger than their time to live.
 * Pure: the caller passes rows and the clock.
 */

/** Where offers are read from, named like the catalog providers. */
export const OFFER_SOURCES = ['googlebooks', 'itunes', 'openlibrary'] as const;
export type OfferSource = (typeof OFFER_SOURCES)[number];

export type OfferKind = 'ebook' | 'audiobook' | 'borrow';

/**
 * `for_sale`: a price is known; `free`: the store gives it away; `not_for_sale`: listed, not sold in
 * this country; `borrow_now`, `waitlist`, `read_free`: Open Library's lending state.
 */
export type OfferState = 'for_sale' | 'free' | 'not_for_sale' | 'borrow_now' | 'waitlist' | 'read_free';

/** Open Library's lending does not depend on the reader's country: its offers are stored under this. */
export const ANY_COUNTRY = '*';

export interface Offer {
  source: OfferSource;
  /** ISO 3166-1 alpha-2 the store answered for, or `*` (Open Library). */
  country: string;
  kind: OfferKind;
  state: OfferState;
  /** In the currency's major unit (7.99), when the store named a price. */
  amount: number | null;
  /** ISO 4217 (GBP), with `amount`. */
  currency: string | null;
  /** The book's own page at the store or library, when the source gave one (checked against its hosts). */
  url: string | null;
  /** When it was read (ISO 8601). */
  readAt: string;
}

/** When one source was last asked about a book for a country (whatever it answered). */
export interface OfferRead {
  source: OfferSource;
  country: string;
  readAt: string | null;
}

/** The destinations an offer belongs to: the button it is shown on. */
const DESTINATION_OF: Readonly<Record<OfferSource, Partial<Record<OfferKind, string>>>> = {
  googlebooks: { ebook: 'google-play' },
  itunes: { ebook: 'apple-books', audiobook: 'apple-books-audiobooks' },
  openlibrary: { borrow: 'open-library' },
};

/** Hosts a source's links may point to; any other link in an answer is dropped. */
export const OFFER_LINK_HOSTS: Readonly<Record<OfferSource, readonly string[]>> = {
  googlebooks: ['play.google.com'],
  itunes: ['books.apple.com'],
  openlibrary: ['openlibrary.org', 'archive.org'],
};

export function destinationForOffer(offer: Pick<Offer, 'source' | 'kind'>): string | null {
  return DESTINATION_OF[offer.source][offer.kind] ?? null;
}

/** Whether `readAt` is within `ttlMs` of `now` (an unreadable time is stale). */
export function isFresh(readAt: string | null, now: number, ttlMs: number): boolean {
  if (!readAt) return false;
  const time = Date.parse(readAt);
  return !Number.isNaN(time) && now - time < ttlMs && time <= now + 60_000;
}

/** The offers a reader in `country` may be shown now: theirs (or any country's), none stale. */
export function currentOffers(
  offers: readonly Offer[],
  country: string | null,
  now: number,
  ttlMs: number,
): Offer[] {
  return offers.filter(
    (offer) =>
      (offer.country === ANY_COUNTRY || offer.country === country) && isFresh(offer.readAt, now, ttlMs),
  );
}

/** Sources whose answer for `country` is missing or older than the time to live: worth asking again. */
export function staleSources(
  reads: readonly OfferRead[],
  sources: readonly OfferSource[],
  country: string,
  now: number,
  ttlMs: number,
): OfferSource[] {
  return sources.filter((source) => {
    const key = source === 'openlibrary' ? ANY_COUNTRY : country;
    const read = reads.find((item) => item.source === source && item.country === key);
    return !isFresh(read?.readAt ?? null, now, ttlMs);
  });
}

/** The offer shown on a destination's button, by destination slug; the cheapest when several. */
export function offersByDestination(offers: readonly Offer[]): Map<string, Offer> {
  const byDestination = new Map<string, Offer>();
  for (const offer of offers) {
    const slug = destinationForOffer(offer);
    if (!slug) continue;
    const held = byDestination.get(slug);
    if (!held || rank(offer) < rank(held)) byDestination.set(slug, offer);
  }
  return byDestination;
}

function rank(offer: Offer): number {
  const order: OfferState[] = ['free', 'read_free', 'borrow_now', 'for_sale', 'waitlist', 'not_for_sale'];
  return order.indexOf(offer.state) * 1e9 + (offer.amount ?? 0);
}

/** Whether `url` is an https (or http) link on one of the source's hosts (or their subdomains). */
export function offerLinkAllowed(source: OfferSource, url: string | null): url is string {
  const parsed = url ? parseHttpUrl(url) : null;
  if (!parsed) return false;
  const host = parsed.hostname.toLowerCase();
  return OFFER_LINK_HOSTS[source].some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

/**
 * Formatters by locale and currency: building an `Intl.NumberFormat` costs far more than formatting
 * with it, and a page render formats a price per button. Few keys (languages × countries × currencies).
 */
const PRICE_FORMATS = new Map<string, Intl.NumberFormat | null>();

function priceFormat(locale: string, currency: string): Intl.NumberFormat | null {
  const key = `${locale} ${currency}`;
  let format = PRICE_FORMATS.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      format = null;
    }
    if (PRICE_FORMATS.size > 2000) PRICE_FORMATS.clear();
    PRICE_FORMATS.set(key, format);
  }
  return format;
}

/** A price for people, in the page's language and the reader's country ("£7.99", "7,99 €"). */
export function formatPrice(
  amount: number,
  currency: string,
  language: string,
  country: string | null,
): string {
  const format =
    (country ? priceFormat(`${language}-${country}`, currency) : null) ?? priceFormat(language, currency);
  return format ? format.format(amount) : `${amount} ${currency}`;
}
