import { foldText } from '../../domain/text.js';
import { deletePin, findPin, insertPin, listPins, type PinRecord } from '../../store/admin-pins.js';
import type { Book } from '../../store/books.js';
import { findNamedBook } from './book-ref.js';
import { AdminArea, type AuditActor, type CommandResult, type FieldErrors, invalid, ok } from './commands.js';

export type { PinRecord } from '../../store/admin-pins.js';

/** Search pins: the Pins page and the pins section of a book's admin page. */
export class AdminPins extends AdminArea {
  list(): Promise<PinRecord[]> {
    return listPins(this.db);
  }

  /** Pins the book an operator names: a slug, an ISBN, or a `/book/…` or `/b/…` URL of this site. */
  async pin(
    actor: AuditActor,
    bookRef: string,
    query: string,
    notes: string,
  ): Promise<CommandResult<number>> {
    const book = await findNamedBook(this.db, bookRef);
    if (!book) return invalid({ book_ref: 'No saved book has this slug, ISBN or address.' });
    return this.pinBook(actor, book, query, notes);
  }

  /** Pins a book to the top of a search. The query is stored folded, as the search engine compares it. */
  async pinBook(actor: AuditActor, book: Book, query: string, notes: string): Promise<CommandResult<number>> {
    const queryKey = foldText(query);
    const errors: FieldErrors = {};
    if (!queryKey) errors.query = 'Enter the search words to pin.';
    if (query.length > 500) errors.query = 'At most 500 characters.';
    if (Object.keys(errors).length > 0) return invalid(errors);
    const after = { queryKey, bookId: book.id, notes: notes.trim() };
    const id = await this.audited(
      actor,
      (trx) => insertPin(trx, queryKey, book.id, after.notes),
      (pinId) =>
        pinId === null ? null : { action: 'pin.create', entityType: 'pin', entityId: pinId, after },
    );
    if (id === null) return invalid({ query: 'This search already pins this book.' });
    this.events.emit('book-changed', book.slug);
    return ok(id);
  }

  async remove(actor: AuditActor, pinId: number): Promise<boolean> {
    const pin = await findPin(this.db, pinId);
    if (!pin) return false;
    const before = { queryKey: pin.queryKey, bookId: pin.bookId, notes: pin.notes };
    await this.audited(actor, (trx) => deletePin(trx, pinId), {
      action: 'pin.delete',
      entityType: 'pin',
      entityId: pinId,
      before,
    });
    this.events.emit('book-changed', pin.bookSlug);
    return true;
  }
}
