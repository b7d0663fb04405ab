import { createWork, setBookWork, setCanonical, slugsOfWork, workOf } from '../../store/admin-editions.js';
import { type Book, findBookById } from '../../store/books.js';
import { findNamedBook } from './book-ref.js';
import { AdminArea, type AuditActor, type CommandResult, invalid, ok } from './commands.js';

/** The editions section of a book's admin page: link, unlink, and choose the canonical edition. */
export class AdminEditions extends AdminArea {
  /**
   * Puts the edition an operator names into the book's work (creating the work when the book has
   * none): an ISBN-10/13, its page address (`/book/{slug}`, `/b/{slug}` or a full URL), its slug, or
   * its numeric id.
   */
  async link(actor: AuditActor, book: Book, reference: string): Promise<CommandResult> {
    const target = await findNamedBook(this.db, reference, { ids: true });
    if (!target) return invalid({ target_book_id: 'No book has this ISBN, address or id.' });
    if (target.id === book.id) return invalid({ target_book_id: 'A book cannot be its own edition.' });
    const workId = await this.audited(
      actor,
      async (trx) => {
        const id = book.workId ?? (await createWork(trx, book.title));
        if (book.workId === null) await setBookWork(trx, book.id, id);
        await setBookWork(trx, target.id, id);
        return id;
      },
      (id) => ({
        action: 'book.edition.link',
        entityType: 'book',
        entityId: book.id,
        before: { targetWorkId: target.workId },
        after: { workId: id, targetBookId: target.id },
      }),
    );
    await this.refreshWork(workId, [target.slug]);
    if (target.workId !== null) await this.refreshWork(target.workId);
    return ok(undefined);
  }

  /** Takes `targetId` (or the book itself) out of the work into a work of its own. */
  async unlink(actor: AuditActor, book: Book, targetId: number | null): Promise<CommandResult> {
    const target = targetId === null ? book : await findBookById(this.db, targetId);
    if (!target || target.workId === null || target.workId !== book.workId)
      return invalid({ target_book_id: 'That book is not an edition of this one.' });
    const oldWork = target.workId;
    await this.audited(
      actor,
      async (trx) => {
        const work = await workOf(trx, oldWork);
        if (work?.canonicalBookId === target.id) await setCanonical(trx, oldWork, null);
        await setBookWork(trx, target.id, await createWork(trx, target.title));
      },
      { action: 'book.edition.unlink', entityType: 'book', entityId: target.id, before: { workId: oldWork } },
    );
    await this.refreshWork(oldWork, [target.slug]);
    return ok(undefined);
  }

  /** The edition a work's pages lead with; null clears the choice. */
  async setCanonical(actor: AuditActor, book: Book, canonicalId: number | null): Promise<CommandResult> {
    if (book.workId === null)
      return invalid({ new_canonical_id: 'Link an edition first: this book has no work.' });
    const workId = book.workId;
    if (canonicalId !== null) {
      const chosen = await findBookById(this.db, canonicalId);
      if (!chosen || chosen.workId !== workId)
        return invalid({ new_canonical_id: 'Choose an edition of this work.' });
    }
    await this.audited(
      actor,
      async (trx) => {
        const before = await workOf(trx, workId);
        await setCanonical(trx, workId, canonicalId);
        return before;
      },
      (before) => ({
        action: 'work.canonical.set',
        entityType: 'work',
        entityId: workId,
        before: { canonicalBookId: before?.canonicalBookId ?? null },
        after: { canonicalBookId: canonicalId },
      }),
    );
    await this.refreshWork(workId);
    return ok(undefined);
  }

  private async refreshWork(workId: number | null, extra: string[] = []): Promise<void> {
    const slugs = workId === null ? [] : await slugsOfWork(this.db, workId);
    for (const slug of new Set([...slugs, ...extra])) this.events.emit('book-changed', slug);
  }
}
