import { parseIsbn } from '../../domain/isbn.js';
import { type Book, findBookById, findBookByIsbn13, findBookBySlug } from '../../store/books.js';
import type { Db } from '../../store/schema.js';

const OWN_PAGE = /^(?:https?:\/\/[^/]+)?\/(?:book|b)\/([^/?#\s]+)/i;

/** The slug of this site's `/book/{slug}` or `/b/{slug}` address (a path or a full URL), or null. */
export function ownPageSlug(text: string): string | null {
  const path = OWN_PAGE.exec(text.trim())?.[1];
  if (!path) return null;
  try {
    return decodeURIComponent(path).toLowerCase();
  } catch {
    return path.toLowerCase();
  }
}

/**
 * A book with a page that an operator names: its page address, an ISBN-10/13, its slug, or (with
 * `ids`) its numeric id. Never creates a book (lists may: see `AdminLists.findBook`).
 */
export async function findNamedBook(
  db: Db,
  ref: string,
  options: { ids?: boolean } = {},
): Promise<Book | null> {
  const text = ref.trim();
  if (!text) return null;
  const slug = ownPageSlug(text);
  if (slug) return findBookBySlug(db, slug);
  const isbn = parseIsbn(text);
  if (isbn) return findBookByIsbn13(db, isbn.isbn13);
  if (options.ids && /^\d{1,9}$/.test(text)) return findBookById(db, Number(text));
  return findBookBySlug(db, text.toLowerCase());
}
