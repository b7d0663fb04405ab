import { parseIsbn } from '../../domain/isbn.js';
import {
  deleteOverride,
  findBooksForAdmin,
  isbnTakenByOther,
  updateBookFields,
  upsertOverride,
} from '../../store/admin-books.js';
import { destinationIdExists, destinationSlugExists } from '../../store/admin-destinations.js';
import { deleteLink, findLink, insertLink } from '../../store/admin-links.js';
import { type Book, findBookById } from '../../store/books.js';
import { type BookAdminData, bookPageModel } from './book-page.js';
import {
  AdminArea,
  type AuditActor,
  audited,
  type CommandContext,
  type CommandResult,
  type FieldErrors,
  invalid,
  isHttpUrl,
  ok,
} from './commands.js';
import { checkLinkFields, type LinkInput } from './link-fields.js';
import { listsOfBook } from './lists-read.js';

export type { Book } from '../../store/books.js';
export type { BookAdminData } from './book-page.js';

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

/** Edits a book's facts; never its slug, which stays its permanent address. */
export async function updateBook(
  ctx: CommandContext,
  book: Book,
  input: BookEditInput,
): Promise<CommandResult> {
  const errors: FieldErrors = {};
  const title = input.title.trim();
  if (!title) errors.title = 'A book needs a title.';
  if (title.length > 500) errors.title = 'At most 500 characters.';
  const isbn = input.isbn_13.trim() ? parseIsbn(input.isbn_13) : null;
  if (input.isbn_13.trim() && !isbn) errors.isbn_13 = 'Not a valid ISBN (check the digits).';
  if (isbn && (await isbnTakenByOther(ctx.db, isbn.isbn13, book.id)))
    errors.isbn_13 = 'Another book has this ISBN.';
  const coverUrl = input.cover_url.trim();
  if (coverUrl && !isHttpUrl(coverUrl)) errors.cover_url = 'Use an http(s) image address.';
  if (Object.keys(errors).length > 0) return invalid(errors);
  const authors = splitAuthors(input.authors);
  const fields = {
    title,
    authors,
    isbn13: isbn?.isbn13 ?? null,
    isbn10: isbn ? isbn.isbn10 : null,
    coverUrl: coverUrl || null,
    description: input.description.trim() || null,
  };
  const after = {
    title,
    authors,
    isbn13: isbn?.isbn13 ?? null,
    coverUrl: coverUrl || null,
    description: input.description.trim() || null,
  };
  await audited(ctx, (trx) => updateBookFields(trx, book.id, fields), {
    action: 'book.update',
    entityType: 'book',
    entityId: book.id,
    before: snapshot(book),
    after,
  });
  ctx.events.emit('book-changed', book.slug);
  return ok(undefined);
}

export interface AddLinkInput extends LinkInput {
  destination_id: number;
}

export async function addBookLink(
  ctx: CommandContext,
  book: Book,
  input: AddLinkInput,
): Promise<CommandResult<number>> {
  const checked = checkLinkFields(input);
  const destination = await destinationIdExists(ctx.db, input.destination_id);
  const errors: FieldErrors = 'errors' in checked ? { ...checked.errors } : {};
  if (!destination) errors.destination_id = 'Choose a destination.';
  if (Object.keys(errors).length > 0 || !('fields' in checked)) return invalid(errors);
  const id = await audited(
    ctx,
    (trx) => insertLink(trx, book.id, input.destination_id, checked.fields),
    (linkId) => ({
      action: 'book.link.add',
      entityType: 'book',
      entityId: book.id,
      after: { linkId, destinationId: input.destination_id, ...checked.fields },
    }),
  );
  ctx.events.emit('book-changed', book.slug);
  return ok(id);
}

/** Removes one curated link (SPEC "book remove destination" / "destination remove book"). */
export async function removeBookLink(
  ctx: CommandContext,
  linkId: number,
  owner: { bookId?: number; destinationId?: number },
): Promise<boolean> {
  const link = await findLink(ctx.db, linkId);
  // Only a link of the page's own book or destination: a form cannot reach into another record.
  if (!link || (owner.bookId !== undefined && link.bookId !== owner.bookId)) return false;
  if (owner.destinationId !== undefined && link.destinationId !== owner.destinationId) return false;
  await audited(ctx, (trx) => deleteLink(trx, linkId), {
    action: 'book.link.remove',
    entityType: 'book',
    entityId: link.bookId,
    before: link,
  });
  ctx.events.emit('book-changed', link.bookSlug);
  return true;
}

export interface OverrideInput {
  retailer_key: string;
  override_url: string;
  notes: string;
}

export async function createOverride(
  ctx: CommandContext,
  book: Book,
  input: OverrideInput,
): Promise<CommandResult> {
  const errors: FieldErrors = {};
  const key = input.retailer_key.trim().toLowerCase();
  const url = input.override_url.trim();
  const known = await destinationSlugExists(ctx.db, key);
  if (!known) errors.retailer_key = 'Choose a destination.';
  if (!isHttpUrl(url)) errors.override_url = 'Use an http(s) address.';
  if (Object.keys(errors).length > 0) return invalid(errors);
  await audited(ctx, (trx) => upsertOverride(trx, book.id, key, url, input.notes.trim()), {
    action: 'book.override.set',
    entityType: 'book',
    entityId: book.id,
    after: { retailerKey: key, url, notes: input.notes.trim() },
  });
  ctx.events.emit('book-changed', book.slug);
  return ok(undefined);
}

export async function removeOverride(ctx: CommandContext, book: Book, retailerKey: string): Promise<void> {
  await audited(
    ctx,
    (trx) => deleteOverride(trx, book.id, retailerKey),
    (removed) =>
      removed > 0
        ? { action: 'book.override.delete', entityType: 'book', entityId: book.id, before: { retailerKey } }
        : null,
  );
  ctx.events.emit('book-changed', book.slug);
}

export async function reloadBook(ctx: CommandContext, id: number): Promise<Book | null> {
  return findBookById(ctx.db, id);
}

/** The Books area: finding books, the book's admin page, and its edit, link and override commands. */
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

  update(actor: AuditActor, book: Book, input: BookEditInput): Promise<CommandResult> {
    return updateBook(this.as(actor), book, input);
  }

  addLink(actor: AuditActor, book: Book, input: AddLinkInput): Promise<CommandResult<number>> {
    return addBookLink(this.as(actor), book, input);
  }

  removeLink(actor: AuditActor, linkId: number, owner: { bookId: number }): Promise<boolean> {
    return removeBookLink(this.as(actor), linkId, owner);
  }

  setOverride(actor: AuditActor, book: Book, input: OverrideInput): Promise<CommandResult> {
    return createOverride(this.as(actor), book, input);
  }

  removeOverride(actor: AuditActor, book: Book, retailerKey: string): Promise<void> {
    return removeOverride(this.as(actor), book, retailerKey);
  }
}
