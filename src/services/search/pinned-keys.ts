import type { Store } from '../../store/db.js';
import type { BookRow } from '../../store/schema.js';
import { pinnedBooks, pinnedQueryKeys } from '../../store/search/pins.js';

/** Pinned queries kept; beyond it every search asks the database for its pins. */
const KEYS_KEPT = 10_000;
/** How long the list is trusted: a pin another process wrote without an announcement shows within it. */
const KEYS_KNOWN_MS = 60_000;

/**
 * Which folded queries pin a book, remembered, so that a search whose query pins none (nearly every
 * one) asks the database nothing for its pins: on PostgreSQL that was one round trip of the six a
 * search makes (bench/runs/2026-12-03-run-30.md). A pinned query's books are read as before, fresh.
 * The admin area's pin and unpin announce a change (`book-changed`), on every instance through Redis,
 * and `forget` drops the list; a pin written any other way shows within KEYS_KNOWN_MS.
 */
export class PinnedKeys {
  private known: { keys: ReadonlySet<string> | null; at: number } | null = null;
  /** Counts `forget` calls: a list read across one is not kept, as it may predate the change. */
  private forgotten = 0;

  /** The books pinned to `queryKey`, in pin order (see `pinnedBooks`). */
  async books(store: Store, queryKey: string): Promise<BookRow[]> {
    const keys = await this.keys(store);
    if (keys && !keys.has(queryKey)) return [];
    return pinnedBooks(store, queryKey);
  }

  forget(): void {
    this.known = null;
    this.forgotten++;
  }

  /** The pinned queries, or null when there are more than KEYS_KEPT. */
  private async keys(store: Store): Promise<ReadonlySet<string> | null> {
    if (this.known && Date.now() - this.known.at < KEYS_KNOWN_MS) return this.known.keys;
    const [at, forgotten] = [Date.now(), this.forgotten];
    const read = await pinnedQueryKeys(store.db, KEYS_KEPT + 1);
    const keys = read.length > KEYS_KEPT ? null : new Set(read);
    if (forgotten === this.forgotten) this.known = { keys, at };
    // Read across a change: this search may not see it, the next one reads the list again.
    return keys;
  }
}
