import { DESTINATION_GROUPS, GROUP_TITLES } from '../groups.js';
import { type BookLinkInput, resolveLink } from './resolve.js';
import type { Destination, LinkGroup, LinkOptions, ResolvedLink } from './types.js';

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
