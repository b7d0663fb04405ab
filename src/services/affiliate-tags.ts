import { operatorTags } from '../domain/affiliate.js';
import type { Destination } from '../domain/links.js';
import { listAffiliateTags } from '../store/affiliate-tags.js';
import type { Db } from '../store/schema.js';

/**
 * The countries of a destination's storefronts (stored with the destination, keyed by its id, so a
 * rename keeps them): the one place the affiliate settings learn them.
 */
export type StorefrontList = (destination: Destination) => readonly string[];
export const storefrontList: StorefrontList = (destination) => Object.keys(destination.storefronts).sort();

/** Without a relay (no Redis), another instance's edit is seen within this, like a destination edit. */
const TTL_MS = 60_000;

/**
 * The operator's tags as every link applies them (`AFFILIATE_TAGS` over the admin area's), loaded
 * once and kept until a change: tag edits emit `destinations-changed`, which reaches every instance
 * (change-relay) and calls `invalidate` there.
 */
export class OperatorTags {
  private loaded: Promise<Readonly<Record<string, string>>> | null = null;
  private loadedAt = 0;

  constructor(
    private readonly db: Db,
    private readonly environment: Readonly<Record<string, string>>,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<Readonly<Record<string, string>>> {
    if (this.loaded && this.now() - this.loadedAt < TTL_MS) return this.loaded;
    const loading = listAffiliateTags(this.db).then((stored) => operatorTags(this.environment, stored));
    this.loaded = loading;
    this.loadedAt = this.now();
    // A failed load is tried again by the next request, never served from here.
    loading.catch(() => {
      if (this.loaded === loading) this.loaded = null;
    });
    return loading;
  }

  invalidate(): void {
    this.loaded = null;
  }
}
