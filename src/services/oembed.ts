import { listIdOfRef } from '../domain/list-ids.js';
import type { OEmbedTarget } from '../domain/oembed.js';
import type { BookPages, LoadedBook } from './book-pages.js';
import type { List, ListItem, Lists } from './lists.js';

/** What an oEmbed link names, loaded: a book (as its page shows it) or a list with its books. */
export type OEmbedSubject =
  | { kind: 'book'; loaded: LoadedBook }
  | { kind: 'list'; list: List; items: ListItem[] };

/**
 * Loads what an oEmbed URL names, through the same lookups its page uses; null when it names nothing
 * (an unknown slug or list). Never creates a book: a consumer asking about a URL is not a reader.
 */
export class OEmbedSubjects {
  constructor(
    private readonly pages: BookPages,
    private readonly lists: Lists,
  ) {}

  async load(target: OEmbedTarget): Promise<OEmbedSubject | null> {
    if (target.kind === 'book') {
      const loaded = await this.pages.load(target.slug);
      return loaded ? { kind: 'book', loaded } : null;
    }
    const id = listIdOfRef(target.ref);
    const found = id === null ? null : await this.lists.get(id);
    return found ? { kind: 'list', ...found } : null;
  }
}
