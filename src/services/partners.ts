import { normalisePartnerId, partnerTagMap } from '../domain/partners.js';
import { findPartner, partnerIdForApiKey } from '../store/partners.js';
import type { Db } from '../store/schema.js';

/** A partner whose tags apply: known and active. */
export interface ActivePartner {
  id: string;
  /** Keyed like `AFFILIATE_TAGS`: `amazon`, `amazon.GB`. */
  tags: Readonly<Record<string, string>>;
}

const TTL_MS = 30_000;
const MAX_ENTRIES = 2000;

/**
 * `partner=<id>` → the partner's tags, or null when the id is malformed, unknown or inactive (the
 * operator's tags then apply: a bad partner id is never an error). Lookups are cached briefly because
 * `/go/` asks on every click; admin changes clear the cache at once in this process, other instances
 * within `TTL_MS`.
 */
export class PartnerDirectory {
  private readonly cache = new Map<string, { value: Promise<ActivePartner | null>; expires: number }>();
  private readonly keyCache = new Map<number, { id: string | null; expires: number }>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  active(raw: string | null | undefined): Promise<ActivePartner | null> {
    const id = normalisePartnerId(raw);
    if (!id) return Promise.resolve(null);
    const cached = this.cache.get(id);
    if (cached && cached.expires > this.now()) return cached.value;
    // Made-up ids are cached too (as null), so a flood of them costs one query each per TTL at most,
    // and the map is bounded so it cannot grow without end.
    if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
    const value = this.load(id);
    this.cache.set(id, { value, expires: this.now() + TTL_MS });
    value.catch(() => this.cache.delete(id));
    return value;
  }

  private async load(id: string): Promise<ActivePartner | null> {
    const partner = await findPartner(this.db, id);
    if (!partner?.isActive) return null;
    return { id: partner.id, tags: partnerTagMap(partner.tags) };
  }

  /**
   * The partner for an API call: `partner=` when given, else the partner the operator linked to the
   * caller's API key (so an integrator's key brings its tags without a parameter).
   */
  async forApiCall(raw: string | null | undefined, apiKeyId: number | null): Promise<ActivePartner | null> {
    if (raw !== undefined && raw !== null && raw !== '') return this.active(raw);
    if (apiKeyId === null) return null;
    const cached = this.keyCache.get(apiKeyId);
    const id =
      cached && cached.expires > this.now()
        ? cached.id
        : await partnerIdForApiKey(this.db, apiKeyId).then((found) => {
            if (this.keyCache.size >= MAX_ENTRIES) this.keyCache.clear();
            this.keyCache.set(apiKeyId, { id: found, expires: this.now() + TTL_MS });
            return found;
          });
    return id ? this.active(id) : null;
  }

  clear(): void {
    this.cache.clear();
    this.keyCache.clear();
  }
}
