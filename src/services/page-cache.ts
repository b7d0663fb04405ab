/** An entry as `peek` finds it: still fresh, or past its time to live but kept to answer with. */
export interface CacheHit<V> {
  value: V;
  fresh: boolean;
}

/**
 * A small LRU with a time to live. Book pages are read far more often than they change, and rendering
 * one costs several queries; an entry lives `ttlMs` and is dropped at once when its book changes.
 * Past its time to live an entry is kept as long again for `peek`, which answers with it while the
 * caller renders it anew in the background (stale while revalidate): entries that expire together
 * are then not all rendered again inside one turn of the event loop (bench/README, issue 48).
 */
export class PageCache<V = string> {
  private readonly entries = new Map<string, { value: V; expires: number; tag: string }>();
  /** The most recently used key: a run of hits on one page skips the reordering. */
  private newest: string | undefined;
  /**
   * Counts invalidations: a value made before its tag's (or every tag's) invalidation must not be
   * stored after it (see `mark`). Per tag, so one book's edit does not refuse every other page.
   */
  private generation = 0;
  private clearedAt = 0;
  private readonly invalidatedAt = new Map<string, number>();

  constructor(
    private readonly maxEntries = 5000,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The entry if still fresh; a stale one is dropped. */
  get(key: string): V | undefined {
    const hit = this.peek(key);
    if (hit && !hit.fresh) this.entries.delete(key);
    return hit?.fresh ? hit.value : undefined;
  }

  /** The entry, fresh or stale (stale for as long again as its time to live, then gone). */
  peek(key: string): CacheHit<V> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = this.now();
    if (entry.expires + this.ttlMs <= now) {
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
    return { value: entry.value, fresh: entry.expires > now };
  }

  /** A mark to pass to `set`: a value made after it is stored only if nothing was invalidated since. */
  mark(): number {
    return this.generation;
  }

  /** `tag` groups entries for invalidation (a book's slug). */
  set(key: string, tag: string, value: V, mark = this.generation): void {
    if (this.clearedAt > mark || (this.invalidatedAt.get(tag) ?? 0) > mark) return;
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
    this.generation += 1;
    // Bounded: past it, the marks of every tag are forgotten at once, as by a clear (values in the
    // making are refused; stored ones stay).
    if (this.invalidatedAt.size >= this.maxEntries) {
      this.invalidatedAt.clear();
      this.clearedAt = this.generation;
    }
    this.invalidatedAt.set(tag, this.generation);
    for (const [key, entry] of this.entries) {
      if (entry.tag === tag) this.entries.delete(key);
    }
  }

  clear(): void {
    this.generation += 1;
    this.clearedAt = this.generation;
    this.invalidatedAt.clear();
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
