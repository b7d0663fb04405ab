import type { Db } from '../store/schema.js';
import { countBooks, sitemapBooks } from '../store/sitemap.js';

/** The book pages a sitemap lists, page by page in id order. */
export class Sitemap {
  constructor(private readonly db: Db) {}

  bookCount(): Promise<number> {
    return countBooks(this.db);
  }

  books(limit: number, offset: number): Promise<{ slug: string; updated_at: string }[]> {
    return sitemapBooks(this.db, limit, offset);
  }
}
