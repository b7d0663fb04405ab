import { isDestinationGroup } from '../domain/groups.js';
import type { BookLink, Destination, LinkOverride, Storefront } from '../domain/links.js';
import type { BookDestinationLinkRow, Db, DestinationRow, LinkOverrideRow } from './schema.js';

type Storefronts = Readonly<Record<string, Storefront>>;

/** `"GB,IE"` → ['GB', 'IE']; empty: everywhere. */
export function parseCountries(text: string): string[] {
  return text
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter((code) => /^[A-Z]{2}$/.test(code));
}

export function destinationRowToDestination(row: DestinationRow, storefronts: Storefronts = {}): Destination {
  // An operator could store any group name; an unknown one lands in "new" rather than vanishing.
  const group = isDestinationGroup(row.group_name) ? row.group_name : 'new';
  return {
    id: Number(row.id),
    slug: row.slug,
    displayName: row.display_name,
    shortName: row.short_name,
    description: row.description,
    group,
    urlTemplate: row.url_template,
    baseUrl: row.base_url,
    iconUrl: row.icon_url,
    brandColor: row.brand_color,
    displayPriority: Number(row.display_priority),
    isActive: Number(row.is_active) === 1,
    isPublic: Number(row.is_public) === 1,
    affiliateParam: row.affiliate_param,
    affiliateTag: row.affiliate_tag,
    countries: parseCountries(row.countries ?? ''),
    storefronts,
  };
}

/** Every storefront, grouped by destination id. */
async function storefrontsByDestination(
  db: Db,
  ids?: readonly number[],
): Promise<Map<number, Record<string, Storefront>>> {
  if (ids && ids.length === 0) return new Map();
  let query = db.selectFrom('destination_storefronts').selectAll().orderBy('country');
  if (ids) query = query.where('destination_id', 'in', ids);
  const grouped = new Map<number, Record<string, Storefront>>();
  for (const row of await query.execute()) {
    const id = Number(row.destination_id);
    const fronts = grouped.get(id) ?? {};
    fronts[row.country] = { baseUrl: row.base_url, template: row.url_template };
    grouped.set(id, fronts);
  }
  return grouped;
}

async function withStorefronts(db: Db, rows: readonly DestinationRow[]): Promise<Destination[]> {
  const fronts = await storefrontsByDestination(
    db,
    rows.length === 1 ? rows.map((row) => Number(row.id)) : undefined,
  );
  return rows.map((row) => destinationRowToDestination(row, fronts.get(Number(row.id)) ?? {}));
}

export function bookLinkRowToBookLink(row: BookDestinationLinkRow): BookLink {
  return {
    id: Number(row.id),
    destinationId: Number(row.destination_id),
    url: row.url,
    label: row.label,
    tagline: row.tagline,
    featured: Number(row.is_featured) === 1,
    displayPriority: Number(row.display_priority),
    activeFrom: row.active_from,
    activeUntil: row.active_until,
  };
}

export function overrideRowToOverride(row: LinkOverrideRow): LinkOverride {
  return { retailerKey: row.retailer_key, overrideUrl: row.override_url };
}

/** Every destination, active or not (for the admin area). */
export async function listAllDestinations(db: Db): Promise<Destination[]> {
  const rows = await db.selectFrom('destinations').selectAll().orderBy('id').execute();
  return withStorefronts(db, rows);
}

export async function listActiveDestinations(db: Db): Promise<Destination[]> {
  const rows = await db
    .selectFrom('destinations')
    .selectAll()
    .where('is_active', '=', 1)
    .orderBy('id')
    .execute();
  return withStorefronts(db, rows);
}

/** A destination by its slug or a former slug (`destination_aliases`), so old `/go/` links keep working. */
export async function findDestination(db: Db, slugOrAlias: string): Promise<Destination | null> {
  const slug = slugOrAlias.trim().toLowerCase();
  const direct = await db.selectFrom('destinations').selectAll().where('slug', '=', slug).executeTakeFirst();
  if (direct) return (await withStorefronts(db, [direct]))[0] ?? null;
  const aliased = await db
    .selectFrom('destination_aliases')
    .innerJoin('destinations', 'destinations.id', 'destination_aliases.destination_id')
    .selectAll('destinations')
    .where('destination_aliases.old_slug', '=', slug)
    .executeTakeFirst();
  return aliased ? ((await withStorefronts(db, [aliased]))[0] ?? null) : null;
}

/** All curated links of a book; which are active right now is for the domain to decide. */
export async function bookLinksForBook(db: Db, bookId: number): Promise<BookLink[]> {
  const rows = await db
    .selectFrom('book_destination_links')
    .selectAll()
    .where('book_id', '=', bookId)
    .orderBy('id')
    .execute();
  return rows.map(bookLinkRowToBookLink);
}

export async function overridesForBook(db: Db, bookId: number): Promise<LinkOverride[]> {
  const rows = await db.selectFrom('link_overrides').selectAll().where('book_id', '=', bookId).execute();
  return rows.map(overrideRowToOverride);
}

// ---------------------------------------------------------------------------------------------
// In-process cache of the active list: every book page needs it and it changes only in the admin area.

interface CacheEntry {
  loadedAt: number;
  list: Promise<Destination[]>;
}

/**
 * Keyed by database handle so several stores (tests, tools) never share an entry. The TTL bounds how
 * long another instance of a multi-instance deployment serves a list edited elsewhere; this instance
 * calls `invalidateDestinationCache` after its own edits and sees them at once.
 */
const caches = new WeakMap<Db, CacheEntry>();
export const DESTINATION_CACHE_TTL_MS = 60_000;

export function cachedActiveDestinations(
  db: Db,
  now: number = Date.now(),
  ttlMs: number = DESTINATION_CACHE_TTL_MS,
): Promise<Destination[]> {
  const entry = caches.get(db);
  if (entry && now - entry.loadedAt < ttlMs) return entry.list;
  const list = listActiveDestinations(db);
  caches.set(db, { loadedAt: now, list });
  // A failed load must not be served from the cache until the TTL runs out.
  list.catch(() => {
    if (caches.get(db)?.list === list) caches.delete(db);
  });
  return list;
}

export function invalidateDestinationCache(db: Db): void {
  caches.delete(db);
}
