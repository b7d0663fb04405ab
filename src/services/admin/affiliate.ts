import { type TagKind, type TagSlot, tagSlots } from '../../domain/affiliate.js';
import { isValidCountry, isValidTag } from '../../domain/partners.js';
import { deleteAffiliateTag, listAffiliateTags, upsertAffiliateTag } from '../../store/affiliate-tags.js';
import { clickCounts } from '../../store/analytics.js';
import { listAllDestinations } from '../../store/destinations.js';
import type { Db } from '../../store/schema.js';
import { type StorefrontList, storefrontList } from '../affiliate-tags.js';
import type { ChangeEvents } from '../change-events.js';
import { withSnapshot } from './analytics.js';
import { AdminArea, type AuditActor, type CommandResult, type FieldErrors, invalid, ok } from './commands.js';

export type { TagSlot } from '../../domain/affiliate.js';

/** Clicks of one store (a destination's own or a storefront) in a period, by whose tag they carried. */
export interface StoreClicks {
  destinationId: number;
  destinationSlug: string;
  name: string;
  /** Null for the destination's own store. */
  country: string | null;
  operator: number;
  partner: number;
  none: number;
  /** Clicks made before clicks recorded their tag (migration 0029). */
  unknown: number;
}

/** The earning roll-up's key: `destination id|storefront|tag kind`. */
function parseEarningKey(key: string): { destinationId: number; country: string | null; kind: string } {
  const [id = '', country = '', kind = ''] = key.split('|');
  return { destinationId: Number(id), country: country || null, kind };
}

const KINDS: ReadonlySet<string> = new Set<TagKind>(['operator', 'partner', 'none']);

/** Clicks per store in the last `days` days (or since the first click), from the roll-ups. */
export async function storeClicks(db: Db, days: number | 'all', now = new Date()): Promise<StoreClicks[]> {
  const counts = await withSnapshot(db, days, now, (trx, { range, state }) =>
    clickCounts(trx, 'earning', range, state, now, 100_000),
  );
  const destinations = new Map((await listAllDestinations(db)).map((d) => [d.id, d]));
  const stores = new Map<string, StoreClicks>();
  for (const count of counts) {
    const { destinationId, country, kind } = parseEarningKey(count.key);
    const destination = destinations.get(destinationId);
    const key = `${destinationId}|${country ?? ''}`;
    const row = stores.get(key) ?? {
      destinationId,
      destinationSlug: destination?.slug ?? String(destinationId),
      name: destination?.displayName ?? `Destination ${destinationId}`,
      country,
      operator: 0,
      partner: 0,
      none: 0,
      unknown: 0,
    };
    row[KINDS.has(kind) ? (kind as TagKind) : 'unknown'] += count.clicks;
    stores.set(key, row);
  }
  const total = (row: StoreClicks) => row.operator + row.partner + row.none + row.unknown;
  return [...stores.values()].sort(
    (a, b) =>
      total(b) - total(a) || a.name.localeCompare(b.name) || (a.country ?? '').localeCompare(b.country ?? ''),
  );
}

/** A store that sent clicks without any tag, and why, as far as today's settings tell. */
export interface UntaggedStore extends StoreClicks {
  reason: 'no-parameter' | 'no-tag' | 'tag-set-since';
}

function untaggedReason(slot: TagSlot | undefined): UntaggedStore['reason'] {
  if (!slot) return 'no-tag';
  if (!slot.canCarry) return 'no-parameter';
  // A tag is set: the clicks came before it, or from curated links to hosts the tag is not put on.
  return slot.effective ? 'tag-set-since' : 'no-tag';
}

export interface AffiliateOverview {
  slots: TagSlot[];
  /** Stores that sent clicks without any tag in the last 30 days, the most first. */
  untagged: UntaggedStore[];
  /** Whether `AFFILIATE_TAGS` is set at all. */
  environmentSet: boolean;
}

export const UNTAGGED_DAYS = 30;

/**
 * The operator's affiliate tags: tags set here (one per destination and storefront), `AFFILIATE_TAGS`
 * over them, shown with where each comes from. Every change is audited and emits
 * `destinations-changed`, which drops the tags, pages and `/go/` targets cached on every instance.
 */
export class AdminAffiliate extends AdminArea {
  constructor(
    db: Db,
    events: ChangeEvents,
    private readonly environment: Readonly<Record<string, string>>,
    private readonly storefronts: StorefrontList = storefrontList,
  ) {
    super(db, events);
  }

  async slots(): Promise<TagSlot[]> {
    const [destinations, stored] = await Promise.all([
      listAllDestinations(this.db),
      listAffiliateTags(this.db),
    ]);
    return tagSlots(destinations, this.storefronts, this.environment, stored);
  }

  async overview(now = new Date()): Promise<AffiliateOverview> {
    const slots = await this.slots();
    const bySlot = new Map(slots.map((slot) => [`${slot.destination.id}|${slot.country ?? ''}`, slot]));
    const untagged = (await storeClicks(this.db, UNTAGGED_DAYS, now))
      .filter((row) => row.none > 0)
      .map((row) => ({
        ...row,
        reason: untaggedReason(bySlot.get(`${row.destinationId}|${row.country ?? ''}`)),
      }))
      .sort((a, b) => b.none - a.none || a.name.localeCompare(b.name));
    return { slots, untagged, environmentSet: Object.keys(this.environment).length > 0 };
  }

  /** Sets (or, with an empty tag, removes) the tag of one destination's store or storefront. */
  async setTag(
    actor: AuditActor,
    input: { destinationId: number; country: string; tag: string },
  ): Promise<CommandResult<undefined>> {
    const slots = await this.slots();
    const country = input.country.trim().toUpperCase() || null;
    const tag = input.tag.trim();
    const errors: FieldErrors = {};
    const slot = slots.find((s) => s.destination.id === input.destinationId && s.country === country);
    if (!slots.some((s) => s.destination.id === input.destinationId))
      errors.destination_id = 'Choose a destination.';
    else if (country && !isValidCountry(country))
      errors.country = 'Use a two-letter country code such as GB.';
    else if (!slot) errors.country = 'This destination has no storefront in that country.';
    if (tag && !isValidTag(tag)) errors.tag = 'Letters, digits, . _ ~ and - only (up to 100).';
    if (!slot || Object.keys(errors).length > 0) return invalid(errors);
    const before = slot.stored;
    if ((before ?? '') === tag) return ok(undefined);
    const entity = `${slot.destination.slug}${country ? `.${country}` : ''}`;
    await this.audited(
      actor,
      async (trx) => {
        if (tag) await upsertAffiliateTag(trx, slot.destination.id, country, tag);
        else await deleteAffiliateTag(trx, slot.destination.id, country);
      },
      {
        action: tag ? 'affiliate.tag.set' : 'affiliate.tag.remove',
        entityType: 'affiliate_tag',
        entityId: entity,
        before: before === null ? null : { tag: before },
        after: tag ? { tag } : null,
      },
    );
    // Every instance drops its tags, rendered pages and resolved /go/ targets (change-relay).
    this.events.emit('destinations-changed');
    return ok(undefined);
  }
}
