import { type Book, findBookBySlug } from '../store/books.js';
import { insertSavedEvent, type SavedEvent } from '../store/saved-events.js';
import { ReaderWrites } from './reader-writes.js';
import type { Admission, Writer } from './write-limits.js';

/** Saved-books collections: the books a shared collection names, and what readers do with them. */
export class SavedBooks extends ReaderWrites {
  /** Logs an event, charged to its writer; the same event again in the window is stored once. */
  record(event: SavedEvent, writer: Writer): Promise<Admission> {
    const said = [event.eventType, event.collectionSize, event.bookSlug, event.viewMode, event.clientToken];
    return this.admitted('saved_event', writer, said, (db) => insertSavedEvent(db, event));
  }

  /** The books behind the slugs, in order; unknown slugs are left out. */
  async booksBySlugs(slugs: readonly string[]): Promise<Book[]> {
    const found = await Promise.all(slugs.map((slug) => findBookBySlug(this.db, slug)));
    return found.filter((book): book is Book => book !== null);
  }
}
