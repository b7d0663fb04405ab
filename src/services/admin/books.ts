import { parseIsbn } from '../../domain/isbn.js';
import {
  deleteOverride,
  findBooksForAdmin,
  isbnTakenByOther,
  updateBookFields,
  upsertOverride,
} from '../../store/admin-books.js';
import { destinationSlugExists } from '../../store/admin-destinations.js';
import { type Book, findBookById } from '../../store/books.js';
import { type BookAdminData, bookPageModel } from './book-page.js';
import {
  AdminArea,
  type AuditActor,
  type CommandResult,
  type FieldErrors,
  invalid,
  isHttpUrl,
  ok,
} from './commands.js';
import { listsOfBook } from './lists-read.js';

export type { Book } from '../../store/books.js';

/** SPEC 2.4 "book edit": authors one per line (or separated by semicolons). */
export interface BookEditInput {
  title: string;
  authors: string;
  isbn_13: string;
  cover_url: string;
  description: string;
}

const snapshot = (book: Book) => ({
  title: book.title,
  authors: book.authors,
  isbn13: book.isbn13,
  coverUrl: book.coverUrl,
  description: book.description,
});

export const splitAuthors = (text: string): string[] =>
  text
    .split(/[\n;]+/)
    .map((name) => name.trim())
    .filter(Boolean);

export interface OverrideInput {
  retailer_key: string;
  override_url: string;
  notes: string;
}

/** The Books area: finding books, the book's admin page, and its edit and override commands (links: `AdminLinks`). */
export class AdminBooks extends AdminArea {
  find(id: number): Promise<Book | null> {
    return findBookById(this.db, id);
  }

  /** Title, author, slug or ISBN matches (an exact slug or ISBN first); the newest books for ''. */
  search(query: string): Promise<Book[]> {
    return findBooksForAdmin(this.db, query, parseIsbn(query)?.isbn13 ?? null);
  }

  /** Everything the book's admin page shows, with the lists that hold it. */
  async page(book: Book): Promise<BookAdminData> {
    const [model, lists] = await Promise.all([bookPageModel(this.db, book), listsOfBook(this.db, book.id)]);
    return { ...model, lists };
  }

  /** Edits a book's facts; never its slug, which stays its permanent address. */
  async update(actor: AuditActor, book: Book, input: BookEditInput): Promise<CommandResult> {
    const errors: FieldErrors = {};
    const title = input.title.trim();
    if (!title) errors.title = 'A book needs a title.';
    if (title.length > 500) errors.title = 'At most 500 characters.';
    const isbn = input.isbn_13.trim() ? parseIsbn(input.isbn_13) : null;
    if (input.isbn_13.trim() && !isbn) errors.isbn_13 = 'Not a valid ISBN (check the digits).';
    if (isbn && (await isbnTakenByOther(this.db, isbn.isbn13, book.id)))
      errors.isbn_13 = 'Another book has this ISBN.';
    const coverUrl = input.cover_url.trim();
    if (coverUrl && !isHttpUrl(coverUrl)) errors.cover_url = 'Use an http(s) image address.';
    if (Object.keys(errors).length > 0) return invalid(errors);
    const after = {
      title,
      authors: splitAuthors(input.authors),
      isbn13: isbn?.isbn13 ?? null,
      coverUrl: coverUrl || null,
      description: input.description.trim() || null,
    };
    const fields = { ...after, isbn10: isbn ? isbn.isbn10 : null };
    await this.audited(actor, (trx) => updateBookFields(trx, book.id, fields), {
      action: 'book.update',
      entityType: 'book',
      entityId: book.id,
      before: snapshot(book),
      after,
    });
    this.events.emit('book-changed', book.slug);
    return ok(undefined);
  }

  async setOverride(actor: AuditActor, book: Book, input: OverrideInput): Promise<CommandResult> {
    const errors: FieldErrors = {};
    const key = input.retailer_key.trim().toLowerCase();
    const url = input.override_url.trim();
    const known = await destinationSlugExists(this.db, key);
    if (!known) errors.retailer_key = 'Choose a destination.';
    if (!isHttpUrl(url)) errors.override_url = 'Use an http(s) address.';
    if (Object.keys(errors).length > 0) return invalid(errors);
    const notes = input.notes.trim();
    await this.audited(actor, (trx) => upsertOverride(trx, book.id, key, url, notes), {
      action: 'book.override.set',
      entityType: 'book',
      entityId: book.id,
      after: { retailerKey: key, url, notes },
    });
    this.events.emit('book-changed', book.slug);
    return ok(undefined);
  }

  async removeOverride(actor: AuditActor, book: Book, retailerKey: string): Promise<void> {
    await this.audited(
      actor,
      (trx) => deleteOverride(trx, book.id, retailerKey),
      (removed) =>
        removed > 0
          ? { action: 'book.override.delete', entityType: 'book', entityId: book.id, before: { retailerKey } }
          : null,
    );
    this.events.emit('book-changed', book.slug);
  }
}
