import { API_KEY_PATTERN, type ApiKeyIdentity, findActiveApiKey, hashApiKey } from '../store/api-keys.js';
import type { Db } from '../store/schema.js';

export interface ApiKeyDirectoryOptions {
  /** How long a lookup is trusted; a revoke in another process takes effect within this bound. */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

/**
 * Cached key lookups for the request path: one database query per key per `ttlMs` (30 s), unknown keys
 * included, so a flood of made-up keys cannot hammer the database either. A revoke (the admin area's
 * or the CLI's, both through AdminKeys) clears it by `api-keys-changed`, in every instance that hears
 * the event; a process that does not hear it trusts a lookup for `ttlMs` at most.
 */
export class ApiKeyDirectory {
  private readonly entries = new Map<string, { expires: number; identity: Promise<ApiKeyIdentity | null> }>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    options: ApiKeyDirectoryOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 30_000;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  /** The active key for a clear key, or null for an unknown or revoked one. Malformed keys never reach the database. */
  lookup(key: string): Promise<ApiKeyIdentity | null> {
    if (!API_KEY_PATTERN.test(key)) return Promise.resolve(null);
    const hash = hashApiKey(key);
    const cached = this.entries.get(hash);
    if (cached && cached.expires > this.now()) return cached.identity;
    const identity = findActiveApiKey(this.db, key);
    this.remember(hash, identity);
    // A failed query must not be remembered as "unknown key" for the next 30 s.
    identity.catch(() => this.entries.delete(hash));
    return identity;
  }

  clear(): void {
    this.entries.clear();
  }

  private remember(hash: string, identity: Promise<ApiKeyIdentity | null>): void {
    this.entries.delete(hash);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: the first entry is the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(hash, { expires: this.now() + this.ttlMs, identity });
  }
}
