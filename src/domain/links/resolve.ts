import { affiliateTagFor, isAllowedRedirect, tagIfOwnHost, withAffiliateParam } from './hosts.js';
import { fillTemplateLink, parseWebUrl, placeholderValues } from './templates.js';
import type {
  BookIdentifiers,
  BookLink,
  Destination,
  LinkBook,
  LinkKind,
  LinkOptions,
  LinkOverride,
  ResolvedLink,
} from './types.js';

// One destination for one book

/** The destination's template URL for a book, with its affiliate tag; null when it has no link. */
export function buildDestinationUrl(
  destination: Destination,
  book: LinkBook & { identifiers?: BookIdentifiers },
  options: LinkOptions = {},
): string | null {
  return buildDestinationLink(destination, book, options)?.url ?? null;
}

/** The template URL with its tag, and whether it opens the book's page or a search for it. */
export function buildDestinationLink(
  destination: Destination,
  book: LinkBook & { identifiers?: BookIdentifiers },
  options: LinkOptions = {},
): { url: string; kind: LinkKind } | null {
  const tag = affiliateTagFor(destination, options);
  const filled = fillTemplateLink(
    destination.urlTemplate,
    placeholderValues(book, book.identifiers ?? {}, tag),
  );
  return filled ? { url: withAffiliateParam(filled.url, destination, tag), kind: filled.kind } : null;
}

/** Timestamp of a window bound; a bare `until` date includes that whole day. */
function boundTime(value: string | null, end: boolean): number | null {
  if (value === null || value.trim() === '') return null;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(value.trim());
  const time = Date.parse(dateOnly ? `${value.trim()}T00:00:00Z` : value);
  if (Number.isNaN(time)) return Number.NaN;
  return end && dateOnly ? time + 86_400_000 : time;
}

/** Active when now is inside [from, until); an unreadable bound keeps the link off rather than on. */
export function isBookLinkActive(link: BookLink, now: Date): boolean {
  const from = boundTime(link.activeFrom, false);
  const until = boundTime(link.activeUntil, true);
  if (Number.isNaN(from) || Number.isNaN(until)) return false;
  const time = now.getTime();
  return (from === null || time >= from) && (until === null || time < until);
}

/** The active curated link for a destination; the highest priority wins when several overlap. */
function activeBookLink(destinationId: number, links: readonly BookLink[], now: Date): BookLink | null {
  const active = links.filter((link) => link.destinationId === destinationId && isBookLinkActive(link, now));
  active.sort((a, b) => b.displayPriority - a.displayPriority || b.id - a.id);
  return active[0] ?? null;
}

export interface BookLinkInput {
  book: LinkBook;
  identifiers: BookIdentifiers;
  bookLinks: readonly BookLink[];
  overrides: readonly LinkOverride[];
  now: Date;
  /**
   * The book's own page at a store, by destination slug, as the store's API gave it with an offer
   * (issue 47): used instead of a search, and only on the destination's own hosts.
   */
  offerUrls?: Readonly<Record<string, string>>;
}

/**
 * The link a destination gives for a book. A curated link's URL wins, then the operator's override,
 * then the template. Used for the book page and for `/go/` so both always agree.
 */
export function resolveLink(
  destination: Destination,
  input: BookLinkInput,
  options: LinkOptions = {},
): ResolvedLink | null {
  const curated = activeBookLink(destination.id, input.bookLinks, input.now);
  const override = input.overrides.find((item) => item.retailerKey === destination.slug);
  const explicit = [curated?.url, override?.overrideUrl].find((url) => url && parseWebUrl(url));
  const offered = input.offerUrls?.[destination.slug];
  const direct = offered && isAllowedRedirect(offered, destination) ? offered : null;
  // A curated or override URL is the operator's chosen page for this book; a store's own link next.
  const chosen = explicit || direct;
  const built = chosen
    ? { url: tagIfOwnHost(chosen, destination, options), kind: 'product' as const }
    : buildDestinationLink(destination, { ...input.book, identifiers: input.identifiers }, options);
  if (!built) return null;
  return {
    destination,
    url: built.url,
    kind: built.kind,
    label: curated?.label || null,
    tagline: curated?.tagline || null,
    featured: curated?.featured ?? false,
  };
}

/** URLs `/go/` may follow for this book beyond the destination's own hosts. */
export function explicitUrlsFor(destination: Destination, input: BookLinkInput): string[] {
  const curated = input.bookLinks.filter((link) => link.destinationId === destination.id).map((l) => l.url);
  const overrides = input.overrides
    .filter((o) => o.retailerKey === destination.slug)
    .map((o) => o.overrideUrl);
  return [...curated, ...overrides].filter(Boolean);
}
