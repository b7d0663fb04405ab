/**
 * A small LRU with a time to live. Book pages are read far more often than they change, and rendering
 * one costs several queries; an entry lives `ttlMs` and is dropped at once when its book changes.
 */
export class PageCache<V = string> {
  private readonly entries = new Map<string, { value: V; expires: number; tag: string }>();
  /** The most recently used key: a run of hits on one page skips the reordering. */
  private newest: string | undefined;

  constructor(
    private readonly maxEntries = 5000,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-insert so the Map's order is least recently used first (a Map delete costs more than
    // the rest of a hit, so the newest entry, already last, stays where it is).
    if (key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.newest = key;
    }
    return entry.value;
  }

  /** `tag` groups entries for invalidation (a book's slug). */
  set(key: string, tag: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, tag, expires: this.now() + this.ttlMs });
    this.newest = key;
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  invalidate(tag: string): void {
    for (const [key, entry] of this.entries) {
      if (entry.tag === tag) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
