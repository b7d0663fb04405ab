import { destinationIdExists } from '../../store/admin-destinations.js';
import { deleteLink, findLink, insertLink, type LinkRecord, updateLink } from '../../store/admin-links.js';
import type { Book } from '../../store/books.js';
import { AdminArea, type AuditActor, type CommandResult, type FieldErrors, invalid, ok } from './commands.js';
import { checkLinkFields, type LinkInput } from './link-fields.js';

export interface AddLinkInput extends LinkInput {
  destination_id: number;
}

/** The page a link is changed from: a form cannot reach into another book's or destination's links. */
export type LinkOwner = { bookId: number } | { destinationId: number };

/**
 * Curated book links, the join of a book and a destination: the book's page adds them, and both the
 * book's page and the destination's bulk view change or remove them.
 */
export class AdminLinks extends AdminArea {
  /** SPEC 2.4 "book add destination". */
  async add(actor: AuditActor, book: Book, input: AddLinkInput): Promise<CommandResult<number>> {
    const checked = checkLinkFields(input);
    const destination = await destinationIdExists(this.db, input.destination_id);
    const errors: FieldErrors = 'errors' in checked ? { ...checked.errors } : {};
    if (!destination) errors.destination_id = 'Choose a destination.';
    if (Object.keys(errors).length > 0 || !('fields' in checked)) return invalid(errors);
    const id = await this.audited(
      actor,
      (trx) => insertLink(trx, book.id, input.destination_id, checked.fields),
      (linkId) => ({
        action: 'book.link.add',
        entityType: 'book',
        entityId: book.id,
        after: { linkId, destinationId: input.destination_id, ...checked.fields },
      }),
    );
    this.events.emit('book-changed', book.slug);
    return ok(id);
  }

  /** SPEC 2.4 "destination update link": one row of a destination's bulk view of book links. */
  async update(
    actor: AuditActor,
    destinationId: number,
    linkId: number,
    input: LinkInput,
  ): Promise<CommandResult<LinkRecord>> {
    const link = await this.ownLink(linkId, { destinationId });
    if (!link) return invalid({ link_id: 'This link is not on this destination.' });
    const checked = checkLinkFields(input);
    if ('errors' in checked) return invalid(checked.errors);
    const after = { linkId, ...checked.fields };
    await this.audited(actor, (trx) => updateLink(trx, linkId, checked.fields), {
      action: 'book.link.update',
      entityType: 'book',
      entityId: link.bookId,
      before: link,
      after,
    });
    this.events.emit('book-changed', link.bookSlug);
    return ok(link);
  }

  /** SPEC "book remove destination" / "destination remove book"; false when the owner has no such link. */
  async remove(actor: AuditActor, linkId: number, owner: LinkOwner): Promise<boolean> {
    const link = await this.ownLink(linkId, owner);
    if (!link) return false;
    await this.audited(actor, (trx) => deleteLink(trx, linkId), {
      action: 'book.link.remove',
      entityType: 'book',
      entityId: link.bookId,
      before: link,
    });
    this.events.emit('book-changed', link.bookSlug);
    return true;
  }

  private async ownLink(linkId: number, owner: LinkOwner): Promise<LinkRecord | null> {
    const link = await findLink(this.db, linkId);
    if (!link) return null;
    const mine =
      'bookId' in owner ? link.bookId === owner.bookId : link.destinationId === owner.destinationId;
    return mine ? link : null;
  }
}
