import { type Book, findBookBySlug } from '../store/books.js';
import { insertSavedEvent, type SavedEvent } from '../store/saved-events.js';
import type { Db } from '../store/schema.js';

/** Saved-books collections: the books a shared collection names, and what readers do with them. */
export class SavedBooks {
  constructor(private readonly db: Db) {}

  record(event: SavedEvent): Promise<void> {
    return insertSavedEvent(this.db, event);
  }

  /** The books behind the slugs, in order; unknown slugs are left out. */
  async booksBySlugs(slugs: readonly string[]): Promise<Book[]> {
    const found = await Promise.all(slugs.map((slug) => findBookBySlug(this.db, slug)));
    return found.filter((book): book is Book => book !== null);
  }
}
