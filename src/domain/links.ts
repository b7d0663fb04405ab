import { DESTINATION_GROUPS, type DestinationGroup, GROUP_TITLES } from './groups.js';

/**
 * Outbound links: URL templates filled from a book's identifiers and text, the operator's affiliate
 * tags, per-book overrides and curated links, and the ordered groups a book page shows. Pure: the
 * caller loads rows and passes the clock in.
 */

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
  /** Set on a country storefront's copy (see storefronts.ts): only that storefront's tag applies. */
  country?: string;
}

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
  label: string | null;
  tagline: string | null;
  featured: boolean;
}

export interface LinkGroup {
  group: DestinationGroup;
  title: string;
  links: ResolvedLink[];
}

/** Identifiers that only exist where a source confirmed the book. */
export const IDENTIFIER_PLACEHOLDERS = [
  'asin',
  'gutenberg',
  'ia',
  'standard_ebooks',
  'librivox',
  'ol_edition',
  'ol_work',
  'google_volume',
  'apple_books',
  'goodreads',
] as const;
const TEXT_PLACEHOLDERS = ['isbn13', 'isbn10', 'title', 'author', 'title_author'] as const;
export const PLACEHOLDERS: readonly string[] = [
  ...TEXT_PLACEHOLDERS,
  ...IDENTIFIER_PLACEHOLDERS,
  'affiliate',
];

/** Identifiers whose values are paths of several segments (`jane-austen/pride-and-prejudice`). */
const PATH_IDENTIFIERS = new Set(['standard_ebooks']);
const PLACEHOLDER = /\{([a-z0-9_]+)\}/g;
const ALTERNATIVE_SEPARATOR = /\s+\|\|\s+/;
const PLACEHOLDER_IN_HOST = /^[a-z]+:\/\/[^/]*\{/i;

export function templateAlternatives(template: string): string[] {
  return template
    .split(ALTERNATIVE_SEPARATOR)
    .map((alternative) => alternative.trim())
    .filter(Boolean);
}

export function placeholdersOf(alternative: string): string[] {
  return [...alternative.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
}

// ---------------------------------------------------------------------------------------------
// Placeholder values and encoding

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The title as a reader would search for it: series notes such as "(The Hunger Games, #1)" dropped. */
export function searchTitle(title: string): string {
  return collapse(title.replace(/\s*\([^)]*#\s*[\d.]+[^)]*\)\s*$/, ''));
}

/** "Austen, Jane" → "Jane Austen"; other spellings unchanged. Stores search better in reading order. */
export function searchAuthor(author: string): string {
  const parts = author.split(',').map(collapse);
  const [last, first] = parts;
  if (parts.length === 2 && last && first && !/^(jr|sr|ii|iii|iv|phd)\.?$/i.test(first))
    return `${first} ${last}`;
  return collapse(author);
}

export function placeholderValues(
  book: LinkBook,
  identifiers: BookIdentifiers,
  affiliateTag: string | null,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const scheme of IDENTIFIER_PLACEHOLDERS) {
    const value = identifiers[scheme]?.trim();
    if (value) values[scheme] = value;
  }
  const isbn13 = book.isbn13 ?? identifiers.isbn13 ?? '';
  const isbn10 = book.isbn10 ?? identifiers.isbn10 ?? '';
  if (isbn13) values.isbn13 = isbn13;
  if (isbn10) values.isbn10 = isbn10;
  const title = searchTitle(book.title);
  const author = book.authors[0] ? searchAuthor(book.authors[0]) : '';
  if (title) values.title = title;
  if (author) values.author = author;
  // A title alone still finds most books; an author alone never does.
  if (title) values.title_author = collapse(`${title} ${author}`);
  if (affiliateTag) values.affiliate = affiliateTag;
  return values;
}

function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** Encodes a value for a path; null when it would climb out of the path (`..`). */
function encodePathValue(name: string, value: string): string | null {
  const segments = PATH_IDENTIFIERS.has(name) ? value.split('/') : [value];
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
  return segments.map(encodeURIComponent).join('/');
}

function parseWebUrl(text: string): URL | null {
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    if (url.username || url.password) return null;
    return url;
  } catch {
    return null;
  }
}

/** Fills one alternative, or null when a placeholder has no value or the result is not a web URL. */
export function fillAlternative(
  alternative: string,
  values: Readonly<Record<string, string>>,
): string | null {
  const queryStart = alternative.search(/[?#]/);
  let complete = true;
  const filled = alternative.replace(PLACEHOLDER, (_match, name: string, offset: number) => {
    const value = values[name];
    const inQuery = queryStart !== -1 && offset > queryStart;
    const encoded = value ? (inQuery ? encodeQueryValue(value) : encodePathValue(name, value)) : null;
    if (encoded === null) complete = false;
    return encoded ?? '';
  });
  return complete ? (parseWebUrl(filled)?.toString() ?? null) : null;
}

export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string | null {
  for (const alternative of templateAlternatives(template)) {
    const url = fillAlternative(alternative, values);
    if (url) return url;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Affiliate tags and host allow-list

export function affiliateTagFor(destination: Destination, options: LinkOptions = {}): string | null {
  if (destination.country)
    return options.affiliateTags?.[`${destination.slug}.${destination.country}`]?.trim() || null;
  return options.affiliateTags?.[destination.slug]?.trim() || destination.affiliateTag.trim() || null;
}

function withAffiliateParam(url: string, destination: Destination, tag: string | null): string {
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
function tagIfOwnHost(url: string, destination: Destination, options: LinkOptions): string {
  const host = hostOf(url);
  if (!host || !destinationHosts(destination).has(host)) return url;
  return withAffiliateParam(url, destination, affiliateTagFor(destination, options));
}

// ---------------------------------------------------------------------------------------------
// One destination for one book

/** The destination's template URL for a book, with its affiliate tag; null when it has no link. */
export function buildDestinationUrl(
  destination: Destination,
  book: LinkBook & { identifiers?: BookIdentifiers },
  options: LinkOptions = {},
): string | null {
  const tag = affiliateTagFor(destination, options);
  const url = fillTemplate(destination.urlTemplate, placeholderValues(book, book.identifiers ?? {}, tag));
  return url ? withAffiliateParam(url, destination, tag) : null;
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
  const url = explicit
    ? tagIfOwnHost(explicit, destination, options)
    : buildDestinationUrl(destination, { ...input.book, identifiers: input.identifiers }, options);
  if (!url) return null;
  return {
    destination,
    url,
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

// ---------------------------------------------------------------------------------------------
// The book page's groups

export interface GroupOptions extends LinkOptions {
  /** Destination to highlight: its group and it come first. */
  use?: string | null;
  /** Destinations pinned on top of their groups, in this order; their groups move up. */
  top?: readonly string[];
  /** Non-public destinations this visitor holds an access code for. */
  visitorAccessDestinationIds?: ReadonlySet<number>;
}

export function isDestinationVisible(destination: Destination, accessIds?: ReadonlySet<number>): boolean {
  return destination.isActive && (destination.isPublic || (accessIds?.has(destination.id) ?? false));
}

/** `top=a,b` → ['a', 'b'], tolerant of spaces, case and empty items. */
export function parseSlugList(raw: string | null | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((slug) => slug.trim().toLowerCase())
    .filter(Boolean);
}

function pinnedOrder(options: GroupOptions): string[] {
  const pins = [options.use ?? '', ...(options.top ?? [])].map((slug) => slug.trim().toLowerCase());
  return [...new Set(pins.filter(Boolean))];
}

function compareLinks(pins: readonly string[]) {
  const pinIndex = (link: ResolvedLink) => {
    const index = pins.indexOf(link.destination.slug);
    return index === -1 ? Number.POSITIVE_INFINITY : index;
  };
  return (a: ResolvedLink, b: ResolvedLink): number =>
    pinIndex(a) - pinIndex(b) ||
    Number(b.featured) - Number(a.featured) ||
    b.destination.displayPriority - a.destination.displayPriority ||
    a.destination.displayName.localeCompare(b.destination.displayName);
}

export interface LinkGroupsInput extends BookLinkInput {
  destinations: readonly Destination[];
}

/**
 * Ordered groups of a book's links: groups in the canonical order, except that groups holding a pinned
 * destination (`use`, then `top`) come first; within a group pinned, then featured, then by priority.
 * Unknown pinned slugs are ignored; empty groups are left out.
 */
export function buildLinkGroups(input: LinkGroupsInput, options: GroupOptions = {}): LinkGroup[] {
  const pins = pinnedOrder(options);
  const links = input.destinations
    .filter((destination) => isDestinationVisible(destination, options.visitorAccessDestinationIds))
    .map((destination) => resolveLink(destination, input, options))
    .filter((link): link is ResolvedLink => link !== null)
    .sort(compareLinks(pins));
  const groups = DESTINATION_GROUPS.map((group) => ({
    group,
    title: GROUP_TITLES[group],
    links: links.filter((link) => link.destination.group === group),
  })).filter((group) => group.links.length > 0);
  const firstPin = (group: LinkGroup) => {
    const index = pins.indexOf(group.links[0]?.destination.slug ?? '');
    return index === -1 ? Number.POSITIVE_INFINITY : index;
  };
  // Array.prototype.sort is stable, so unpinned groups keep the canonical order.
  return groups.sort((a, b) => firstPin(a) - firstPin(b));
}

// ---------------------------------------------------------------------------------------------
// Validation, for the admin form and the seed

const SAMPLE_VALUES: Readonly<Record<string, string>> = Object.fromEntries(
  PLACEHOLDERS.map((name) => [name, name === 'standard_ebooks' ? 'author/title' : 'sample']),
);

/** Problems with a template, empty when it is usable. */
export function templateProblems(template: string, group: DestinationGroup): string[] {
  const problems: string[] = [];
  for (const alternative of templateAlternatives(template)) {
    const names = placeholdersOf(alternative);
    for (const name of names) {
      if (!PLACEHOLDERS.includes(name)) problems.push(`unknown placeholder {${name}}`);
    }
    if (PLACEHOLDER_IN_HOST.test(alternative)) problems.push(`placeholder in the host: ${alternative}`);
    if (!alternative.startsWith('https://')) problems.push(`not an https URL: ${alternative}`);
    else if (!fillAlternative(alternative, SAMPLE_VALUES))
      problems.push(`does not form a URL: ${alternative}`);
    // A free copy is a claim that the book is there: only a confirmed identifier may back it.
    const claims = names.every((name) => (IDENTIFIER_PLACEHOLDERS as readonly string[]).includes(name));
    if (group === 'free' && !claims) problems.push(`free links may use only identifiers: ${alternative}`);
  }
  return problems;
}
