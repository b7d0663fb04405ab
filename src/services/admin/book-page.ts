import type { BookPageModel } from '../../http/views/admin/book.js';
import { overridesOf } from '../../store/admin-books.js';
import { workOf } from '../../store/admin-editions.js';
import { linksOfBook } from '../../store/admin-links.js';
import { listPins } from '../../store/admin-pins.js';
import { type AdminDb, baseDb } from '../../store/admin-tables.js';
import { type Book, editionsOfWork, findBookById } from '../../store/books.js';
import { listAllDestinations } from '../../store/destinations.js';

export function findBook(db: AdminDb, id: number): Promise<Book | null> {
  return findBookById(baseDb(db), id);
}

/** Everything the book's admin page shows, read fresh (never from the public page caches). */
export async function bookPageModel(db: AdminDb, book: Book): Promise<BookPageModel> {
  const base = baseDb(db);
  const [links, destinations, overrides, pins, editions, work] = await Promise.all([
    linksOfBook(db, book.id),
    listAllDestinations(base),
    overridesOf(db, book.id),
    listPins(db, book.id),
    book.workId === null ? Promise.resolve([]) : editionsOfWork(base, book.workId),
    book.workId === null ? Promise.resolve(null) : workOf(db, book.workId),
  ]);
  return { book, links, destinations, overrides, pins, editions, canonicalId: work?.canonicalBookId ?? null };
}
