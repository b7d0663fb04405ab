import type { DestinationGroup } from '../groups.js';

// The shapes outbound links are built from and into (see ../links.ts for the whole module).

export interface Destination {
  id: number;
  slug: string;
  displayName: string;
  shortName: string;
  description: string;
  group: DestinationGroup;
  /** Alternatives separated by ` || `; the first one whose placeholders all have values wins. */
  urlTemplate: string;
  baseUrl: string;
  iconUrl: string;
  brandColor: string;
  /** Higher comes first within a group. */
  displayPriority: number;
  isActive: boolean;
  isPublic: boolean;
  /** Query parameter carrying the affiliate tag (`tag` for Amazon); empty when the store has none. */
  affiliateParam: string;
  affiliateTag: string;
  /** Where it sells (ISO 3166-1 codes); empty: everywhere (libraries, free copies, world-wide stores). */
  countries: readonly string[];
  /** Its country storefronts by country code (amazon.co.uk for GB); see storefronts.ts. */
  storefronts: Readonly<Record<string, Storefront>>;
  /** Set on a country storefront's copy (see storefronts.ts): only that storefront's tag applies. */
  country?: string;
}

/** A country storefront: it replaces the destination's base URL and template for that country's readers. */
export interface Storefront {
  baseUrl: string;
  template: string;
}

/**
 * What a link opens: the book's own page at the store (`product`), or a search there for the book's
 * ISBN or title (`search`). Readers see and hear the difference.
 */
export type LinkKind = 'product' | 'search';

/** The facts of a book that links are built from (a `Book` from the store fits). */
export interface LinkBook {
  title: string;
  authors: readonly string[];
  isbn13: string | null;
  isbn10: string | null;
}

/** Identifier scheme → value (one value per scheme). */
export type BookIdentifiers = Readonly<Record<string, string>>;

/** A curated link of one book to one destination, possibly only for a time window. */
export interface BookLink {
  id: number;
  destinationId: number;
  url: string;
  label: string;
  tagline: string;
  featured: boolean;
  displayPriority: number;
  activeFrom: string | null;
  activeUntil: string | null;
}

/** An operator's replacement URL for one book at one destination (`retailerKey` is the slug). */
export interface LinkOverride {
  retailerKey: string;
  overrideUrl: string;
}

export interface LinkOptions {
  /** The operator's tags by destination slug (`config.affiliateTags`); they win over the row's tag. */
  affiliateTags?: Readonly<Record<string, string>>;
}

export interface ResolvedLink {
  destination: Destination;
  url: string;
  kind: LinkKind;
  label: string | null;
  tagline: string | null;
  featured: boolean;
}

export interface LinkGroup {
  group: DestinationGroup;
  title: string;
  links: ResolvedLink[];
}
