import { type Book, findBookBySlug } from '../store/books.js';
import { insertSavedEvent, type SavedEvent } from '../store/saved-events.js';
import type { Db } from '../store/schema.js';
import { type Admission, type WriteLimits, type Writer, writeFingerprint } from './write-limits.js';

/** Saved-books collections: the books a shared collection names, and what readers do with them. */
export class SavedBooks {
  constructor(
    private readonly db: Db,
    private readonly writes: WriteLimits,
  ) {}

  /** Logs an event, charged to its writer; the same event again in the window is stored once. */
  async record(event: SavedEvent, writer: Writer): Promise<Admission> {
    const fingerprint = writeFingerprint(
      event.eventType,
      event.collectionSize,
      event.bookSlug,
      event.viewMode,
      event.clientToken,
    );
    const admission = await this.writes.admit('saved_event', writer, fingerprint);
    if (admission.kind === 'admitted') await insertSavedEvent(this.db, event);
    return admission;
  }

  /** The books behind the slugs, in order; unknown slugs are left out. */
  async booksBySlugs(slugs: readonly string[]): Promise<Book[]> {
    const found = await Promise.all(slugs.map((slug) => findBookBySlug(this.db, slug)));
    return found.filter((book): book is Book => book !== null);
  }
}
