import type { Store } from '../../store/db.js';
import type { BookRow } from '../../store/schema.js';
import { pinnedBooks, pinnedQueryKeys } from '../../store/search/pins.js';
import { SearchResultCache } from './results.js';

/** Pinned queries kept; beyond it every search asks the database for its pins. */
const KEYS_KEPT = 10_000;
/** How long the list is trusted: a pin another process wrote without an announcement shows within it. */
const KEYS_KNOWN_MS = 60_000;
const LIST = 'pinned';

/**
 * Which folded queries pin a book, remembered, so that a search whose query pins none (nearly every
 * one) asks the database nothing for its pins: on PostgreSQL that was one round trip of the six a
 * search makes (bench/runs/2026-12-03-run-30.md). A pinned query's books are read as before, fresh.
 * The admin area's pin and unpin announce a change (`book-changed`), on every instance through Redis,
 * and `forget` drops the list; a pin written any other way shows within KEYS_KNOWN_MS.
 */
export class PinnedKeys {
  /** The one list, under one key: null when there are more than KEYS_KEPT pinned queries. */
  private readonly list = new SearchResultCache<ReadonlySet<string> | null>(KEYS_KNOWN_MS, 1);
  /** The list being read now, so that the searches that need it meanwhile wait for the same statement. */
  private reading: Promise<ReadonlySet<string> | null> | null = null;

  /** The books pinned to `queryKey`, in pin order (see `pinnedBooks`). */
  async books(store: Store, queryKey: string): Promise<BookRow[]> {
    const keys = await this.keys(store);
    if (keys && !keys.has(queryKey)) return [];
    return pinnedBooks(store, queryKey);
  }

  forget(): void {
    // A list read across the change is not kept (the cache's mark), as it may predate it.
    this.list.clear();
    this.reading = null;
  }

  private keys(store: Store): Promise<ReadonlySet<string> | null> {
    const known = this.list.get(LIST);
    if (known !== undefined) return Promise.resolve(known);
    if (this.reading) return this.reading;
    const mark = this.list.mark();
    const reading = pinnedQueryKeys(store.db, KEYS_KEPT + 1)
      .then((read) => {
        const keys = read.length > KEYS_KEPT ? null : new Set(read);
        this.list.set(LIST, keys, mark);
        return keys;
      })
      .finally(() => {
        if (this.reading === reading) this.reading = null;
      });
    this.reading = reading;
    return reading;
  }
}
