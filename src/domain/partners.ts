/**
 * Partners bring their own affiliate tags (`partner=<id>` on links). A partner's tag replaces the
 * operator's only where the partner has one for that destination and storefront; the URL template,
 * and so the host `/go/` may redirect to, never changes. Placement words (`src=qr`) name where a link
 * was put. Pure: the store loads partners, this decides.
 */

/** The id an operator gives a partner; it appears in links, so it is a short URL-safe word. */
export const PARTNER_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{0,49}$';
const PARTNER_ID = new RegExp(PARTNER_ID_PATTERN);
/** `src=` placement words: `qr`, `newsletter`, `bio`, `shop-window`… */
export const SRC_PATTERN = '^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$';
const SRC = new RegExp(SRC_PATTERN);
/** Affiliate tags are filled into query strings and paths: a conservative set of characters only. */
const TAG = /^[A-Za-z0-9._~-]{1,100}$/;
const COUNTRY = /^[A-Z]{2}$/;

export interface PartnerTag {
  destinationSlug: string;
  /** Null for the destination's own storefront, else the ISO country of a storefront (`GB`). */
  country: string | null;
  tag: string;
}

export function normalisePartnerId(raw: string | null | undefined): string | null {
  const id = raw?.trim().toLowerCase() ?? '';
  return PARTNER_ID.test(id) ? id : null;
}

export function normaliseSrc(raw: string | null | undefined): string | null {
  const src = raw?.trim() ?? '';
  return SRC.test(src) ? src.toLowerCase() : null;
}

export function isValidTag(tag: string): boolean {
  return TAG.test(tag);
}

export function isValidCountry(country: string): boolean {
  return COUNTRY.test(country);
}

/** A partner's tags keyed like `AFFILIATE_TAGS`: `amazon` for the default store, `amazon.GB` for a storefront. */
export function partnerTagMap(tags: readonly PartnerTag[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const tag of tags) {
    map[tag.country ? `${tag.destinationSlug}.${tag.country}` : tag.destinationSlug] = tag.tag;
  }
  return map;
}

/** The operator's tags with the partner's on top: the partner's where it has one, the operator's elsewhere. */
export function tagsWithPartner(
  operator: Readonly<Record<string, string>>,
  partner: Readonly<Record<string, string>> | null,
): Readonly<Record<string, string>> {
  return partner ? { ...operator, ...partner } : operator;
}
