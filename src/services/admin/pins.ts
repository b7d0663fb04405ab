import { foldText } from '../../domain/text.js';
import { deletePin, findPin, insertPin, listPins, type PinRecord } from '../../store/admin-pins.js';
import type { Book } from '../../store/books.js';
import { findNamedBook } from './book-ref.js';
import {
  AdminArea,
  type AuditActor,
  audited,
  type CommandContext,
  type CommandResult,
  type FieldErrors,
  invalid,
  ok,
} from './commands.js';

export type { PinRecord } from '../../store/admin-pins.js';

/** A book from what an operator pastes: a slug, an ISBN, or a `/book/…` or `/b/…` URL of this site. */
export function resolveBookRef(ctx: CommandContext, ref: string): Promise<Book | null> {
  return findNamedBook(ctx.db, ref);
}

/** Pins a book to the top of a search. The query is stored folded, as the search engine compares it. */
export async function createPin(
  ctx: CommandContext,
  book: Book,
  query: string,
  notes: string,
): Promise<CommandResult<number>> {
  const queryKey = foldText(query);
  const errors: FieldErrors = {};
  if (!queryKey) errors.query = 'Enter the search words to pin.';
  if (query.length > 500) errors.query = 'At most 500 characters.';
  if (Object.keys(errors).length > 0) return invalid(errors);
  const id = await audited(
    ctx,
    (trx) => insertPin(trx, queryKey, book.id, notes.trim()),
    (pinId) =>
      pinId === null
        ? null
        : {
            action: 'pin.create',
            entityType: 'pin',
            entityId: pinId,
            after: { queryKey, bookId: book.id, notes: notes.trim() },
          },
  );
  if (id === null) return invalid({ query: 'This search already pins this book.' });
  ctx.events.emit('book-changed', book.slug);
  return ok(id);
}

export async function removePin(ctx: CommandContext, pinId: number): Promise<boolean> {
  const pin = await findPin(ctx.db, pinId);
  if (!pin) return false;
  const before = { queryKey: pin.queryKey, bookId: pin.bookId, notes: pin.notes };
  await audited(ctx, (trx) => deletePin(trx, pinId), {
    action: 'pin.delete',
    entityType: 'pin',
    entityId: pinId,
    before,
  });
  ctx.events.emit('book-changed', pin.bookSlug);
  return true;
}

/** Search pins: the Pins page and the pins section of a book's admin page. */
export class AdminPins extends AdminArea {
  list(): Promise<PinRecord[]> {
    return listPins(this.db);
  }

  /** Pins the book an operator names by slug, ISBN or `/book/` address (see `resolveBookRef`). */
  async pin(
    actor: AuditActor,
    bookRef: string,
    query: string,
    notes: string,
  ): Promise<CommandResult<number>> {
    const ctx = this.as(actor);
    const book = await resolveBookRef(ctx, bookRef);
    if (!book) return invalid({ book_ref: 'No saved book has this slug, ISBN or address.' });
    return createPin(ctx, book, query, notes);
  }

  pinBook(actor: AuditActor, book: Book, query: string, notes: string): Promise<CommandResult<number>> {
    return createPin(this.as(actor), book, query, notes);
  }

  remove(actor: AuditActor, pinId: number): Promise<boolean> {
    return removePin(this.as(actor), pinId);
  }
}
