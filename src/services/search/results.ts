/**
 * Whole search answers per query text and limit, in process, for a short time (`SEARCH_CACHE_MS`):
 * the same query asked again within it costs a Map lookup instead of retrieval and ranking. A bounded
 * LRU (a Map keeps insertion order, the least recently used goes first). `clear` runs on every change
 * that can alter an answer (a book created or edited, a pin, an import announced), here and, through
 * the change relay, on every instance; what nothing announces (clicks' weight in ranking, another
 * process's writes without Redis) is at most the time to live old.
 *
 * A search that began before a `clear` is not stored when it ends: it may have read what changed.
 *
 * The same bounded, timed memory keeps what search remembers of the word list (`listed-words.ts`) and
 * which queries pin a book (`pinned-keys.ts`).
 *
 * Each answer lives a little less than the time to live, by a random part of up to EXPIRY_SPREAD of it:
 * answers stored together (a burst of popular queries, everything after a `clear`) would otherwise
 * expire together and be searched again in the same second (bench/README).
 */
export interface ResultCacheStats {
  hits: number;
  misses: number;
  /** Answers held now. */
  entries: number;
  /** Times every answer was dropped because something changed. */
  clears: number;
}

/** The share of the time to live by which an answer's expiry is spread (at most, randomly). */
const EXPIRY_SPREAD = 0.25;

export class SearchResultCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();
  private generation = 0;
  private readonly counts = { hits: 0, misses: 0, clears: 0 };

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 2000,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  /** The answer stored for `key` and still fresh; counts a hit or a miss. */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      if (entry.expires > this.now()) {
        // Re-inserted so the Map's order is least recently used first.
        this.entries.set(key, entry);
        this.counts.hits += 1;
        return entry.value;
      }
    }
    this.counts.misses += 1;
    return undefined;
  }

  /** A mark to pass to `set`: the answer computed after it is stored only if nothing changed meanwhile. */
  mark(): number {
    return this.generation;
  }

  set(key: string, value: V, mark: number): void {
    if (mark !== this.generation) return;
    this.entries.delete(key);
    const ttl = this.ttlMs * (1 - EXPIRY_SPREAD * this.random());
    this.entries.set(key, { value, expires: this.now() + ttl });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.generation += 1;
    this.counts.clears += 1;
    this.entries.clear();
  }

  stats(): ResultCacheStats {
    return { ...this.counts, entries: this.entries.size };
  }
}
