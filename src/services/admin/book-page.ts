import type { Destination } from '../../domain/links.js';
import { type OverrideRecord, overridesOf } from '../../store/admin-books.js';
import { workOf } from '../../store/admin-editions.js';
import { type LinkRecord, linksOfBook } from '../../store/admin-links.js';
import { listPins, type PinRecord } from '../../store/admin-pins.js';
import { type Book, editionsOfWork } from '../../store/books.js';
import { listAllDestinations } from '../../store/destinations.js';
import { type OfferReadRow, offerReadsForBook } from '../../store/offers.js';
import type { Db } from '../../store/schema.js';
import { type OneBookFigures, oneBookFigures } from './earnings.js';
import type { BookListRow } from './lists-read.js';

/** Everything the book's admin page shows about the book; the view adds the state of its forms. */
export interface BookAdminData {
  book: Book;
  links: LinkRecord[];
  destinations: Destination[];
  overrides: OverrideRecord[];
  pins: PinRecord[];
  editions: Book[];
  canonicalId: number | null;
  /** The lists holding the book (absent: the section shows none). */
  lists?: readonly BookListRow[];
  /** Its readers' visits, clicks and click-through over the last 30 days. */
  figures?: OneBookFigures;
  /** When each offer source was last read for it, per country (issue 47). */
  offerReads?: readonly OfferReadRow[];
}

/** Everything the book's admin page shows, read fresh (never from the public page caches). */
export async function bookPageModel(db: Db, book: Book): Promise<BookAdminData> {
  const base = db;
  const [links, destinations, overrides, pins, editions, work, figures, offerReads] = await Promise.all([
    linksOfBook(db, book.id),
    listAllDestinations(base),
    overridesOf(db, book.id),
    listPins(db, book.id),
    book.workId === null ? Promise.resolve([]) : editionsOfWork(base, book.workId),
    book.workId === null ? Promise.resolve(null) : workOf(db, book.workId),
    oneBookFigures(db, book.id, 30),
    offerReadsForBook(db, book.id),
  ]);
  return {
    book,
    links,
    destinations,
    overrides,
    pins,
    editions,
    canonicalId: work?.canonicalBookId ?? null,
    figures,
    offerReads,
  };
}
