import { affiliateTagFor, type Destination } from './links.js';
import { forCountry } from './storefronts.js';
import { parseUrl } from './urls.js';

/**
 * The operator's affiliate tags: where each one comes from, and whether a click carried one. Tags are
 * keyed like `AFFILIATE_TAGS`: `amazon` for the destination's own store, `amazon.GB` for a storefront.
 * `AFFILIATE_TAGS` overrides what the admin area stores (and the admin area shows it as "from the
 * environment"); the destination form's own tag field is the last fallback, for the default store only.
 */

/** Whose tag an outbound click carried. */
export type TagKind = 'operator' | 'partner' | 'none';

/** Where an operator's tag comes from. */
export type TagSource = 'environment' | 'admin' | 'destination';

/** `amazon` for the destination's own store, `amazon.GB` for its GB storefront. */
export function tagKey(slug: string, country: string | null): string {
  return country ? `${slug}.${country}` : slug;
}

/** The operator's tags as links apply them: the admin area's, with `AFFILIATE_TAGS` on top. */
export function operatorTags(
  environment: Readonly<Record<string, string>>,
  stored: ReadonlyArray<{ destinationSlug: string; country: string | null; tag: string }>,
): Readonly<Record<string, string>> {
  const tags: Record<string, string> = {};
  for (const row of stored) tags[tagKey(row.destinationSlug, row.country)] = row.tag;
  return Object.freeze({ ...tags, ...environment });
}

/** Whether the store can carry a tag at all: an affiliate parameter, or `{affiliate}` in its template. */
export function canCarryTag(destination: Destination): boolean {
  return destination.affiliateParam.trim() !== '' || destination.urlTemplate.includes('{affiliate}');
}

/** Whether `url` carries `tag` as the destination applies it (its parameter, or in its template). */
export function carriesTag(url: string, destination: Destination, tag: string | null): boolean {
  if (!tag) return false;
  const parsed = parseUrl(url);
  if (!parsed) return false;
  if (destination.affiliateParam && parsed.searchParams.get(destination.affiliateParam) === tag) return true;
  return destination.urlTemplate.includes('{affiliate}') && parsed.pathname.split('/').includes(tag);
}

/**
 * Whose tag the redirect to `url` carries. `destination` is the storefront copy the link was built
 * from; `partnerTags` the active partner's (they replace the operator's where the partner has one).
 */
export function tagKindOf(
  url: string,
  destination: Destination,
  operator: Readonly<Record<string, string>>,
  partner: Readonly<Record<string, string>> | null,
): TagKind {
  const key = tagKey(destination.slug, destination.country ?? null);
  const partnerTag = partner?.[key]?.trim() || null;
  if (partnerTag && carriesTag(url, destination, partnerTag)) return 'partner';
  return carriesTag(url, destination, affiliateTagFor(destination, { affiliateTags: operator }))
    ? 'operator'
    : 'none';
}

/** One store the operator can tag: a destination's own store or one of its country storefronts. */
export interface TagSlot {
  destination: Destination;
  /** Null for the destination's own store. */
  country: string | null;
  /** Where its links go (the storefront's base URL). */
  baseUrl: string;
  /** False when the store has no affiliate parameter and no `{affiliate}` in its template. */
  canCarry: boolean;
  /** The tag links get, and where it comes from; null when links go out without one. */
  effective: { tag: string; source: TagSource } | null;
  /** The tag set in the admin area, shown even where the environment overrides it. */
  stored: string | null;
}

/** Every store of `destinations` (their own and their storefronts) with the tag each one gets. */
export function tagSlots(
  destinations: readonly Destination[],
  storefronts: (destination: Destination) => readonly string[],
  environment: Readonly<Record<string, string>>,
  stored: ReadonlyArray<{ destinationId: number; country: string | null; tag: string }>,
): TagSlot[] {
  const storedTag = new Map(stored.map((row) => [`${row.destinationId}|${row.country ?? ''}`, row.tag]));
  const slots: TagSlot[] = [];
  for (const destination of destinations) {
    for (const country of [null, ...storefronts(destination)]) {
      const store = forCountry(destination, country);
      const key = tagKey(destination.slug, country);
      const mine = storedTag.get(`${destination.id}|${country ?? ''}`) ?? null;
      const fromEnvironment = environment[key]?.trim() || null;
      const fromForm = country === null ? destination.affiliateTag.trim() || null : null;
      const effective = fromEnvironment
        ? { tag: fromEnvironment, source: 'environment' as const }
        : mine
          ? { tag: mine, source: 'admin' as const }
          : fromForm
            ? { tag: fromForm, source: 'destination' as const }
            : null;
      slots.push({
        destination,
        country,
        baseUrl: store.baseUrl,
        canCarry: canCarryTag(store),
        effective,
        stored: mine,
      });
    }
  }
  return slots;
}
