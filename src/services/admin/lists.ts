import { parseIsbn } from '../../domain/isbn.js';
import { featureList, findListByIngestKey, findListItem } from '../../store/admin-lists.js';
import { type Book, findBookBySlug } from '../../store/books.js';
import { addListItem, removeListItem } from '../../store/list-items.js';
import { insertList, type List } from '../../store/lists.js';
import type { BookCreator } from '../book-creator.js';
import type { Resolver } from '../resolve.js';
import { ownPageSlug } from './book-ref.js';
import {
  audited,
  type CommandContext,
  type CommandResult,
  type FieldErrors,
  invalid,
  ok,
} from './commands.js';

/** Must stay the key Ingest.run computes: source+name+date identify one list, whoever made it. */
export const listKey = (source: string, name: string | null, date: string | null): string =>
  JSON.stringify([source, name ?? '', date ?? '']);

const DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;
export const dateError = (date: string): string | null =>
  date === '' || DATE.test(date) ? null : 'Use a date like 2025-01-31 (or 2025-01, or 2025).';

/** SPEC's "book add list" is_featured is a string: "" means false. */
export function parseFlag(value: string): boolean | null {
  const text = value.trim().toLowerCase();
  if (['', 'false', '0', 'off', 'no'].includes(text)) return false;
  return ['true', '1', 'on', 'yes'].includes(text) ? true : null;
}

/**
 * Form numbers (ranks, ids) stay text until here, so "12a" or 99999999999 gets a message beside its
 * field instead of the raw 422 that schema coercion and the storable-number guard would answer.
 */
export function wholeNumber(text: string, max = 1_000_000): number | null | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = /^\d{1,16}$/.test(trimmed) ? Number(trimmed) : 0;
  return value >= 1 && value <= max ? value : 'invalid';
}
export const RANK_ERROR = 'Enter a whole number from 1.';

/** The catalog lookups that may create a book from an ISBN or a retailer address. */
export interface BookFinder {
  creator: Pick<BookCreator, 'byIsbn'>;
  resolver: Pick<Resolver, 'resolveUrl'>;
}

/** A slug, an ISBN (created from the catalogs when new), this site's /book/ URL, or a retailer URL. */
export async function findBookForList(ctx: CommandContext, finder: BookFinder, ref: string) {
  const text = ref.trim();
  if (!text) return null;
  const db = ctx.db;
  const slug = ownPageSlug(text);
  const own = slug ? await findBookBySlug(db, slug) : null;
  if (own) return own;
  const isbn = parseIsbn(text);
  if (isbn) {
    const outcome = await finder.creator.byIsbn(isbn, true);
    return outcome.kind === 'existing' || outcome.kind === 'created' ? outcome.book : null;
  }
  const bySlug = /^[\w-]+$/.test(text) ? await findBookBySlug(db, text.toLowerCase()) : null;
  if (bySlug) return bySlug;
  const resolved = await finder.resolver.resolveUrl(text, true);
  return resolved.status === 'found' ? resolved.book : null;
}

async function hasItem(ctx: CommandContext, listId: number, bookId: number): Promise<boolean> {
  return (await findListItem(ctx.db, listId, bookId)) !== undefined;
}

/** Adds a book to a list picked in the Lists area. */
export async function addBookToList(ctx: CommandContext, list: List, book: Book, rank: number | null) {
  if (await hasItem(ctx, list.id, book.id)) return invalid({ book_ref: 'This book is already on the list.' });
  const after = { bookId: book.id, slug: book.slug, rank };
  await audited(ctx, (trx) => addListItem(trx, list.id, book.id, rank), {
    action: 'list.book.add',
    entityType: 'list',
    entityId: list.id,
    after,
  });
  return ok(book);
}

export interface AddListInput {
  list_name: string;
  list_source: string;
  rank: string;
  list_date: string;
  is_featured: string;
}

/** SPEC "book add list": the list with this source+name+date gets the book, else a new one is made. */
export async function addBookToNamedList(
  ctx: CommandContext,
  book: Book,
  input: AddListInput,
): Promise<CommandResult<number>> {
  const name = input.list_name.trim();
  const source = input.list_source.trim() || 'admin';
  const date = input.list_date.trim();
  const featured = parseFlag(input.is_featured);
  const rank = wholeNumber(input.rank);
  const key = listKey(source, name || null, date || null);
  const found = await findListByIngestKey(ctx.db, key);
  const errors: FieldErrors = {};
  if (featured === null) errors.is_featured = 'Choose yes or no.';
  if (rank === 'invalid') errors.rank = RANK_ERROR;
  const badDate = dateError(date);
  if (badDate) errors.list_date = badDate;
  else if (!found && !name) errors.list_name = 'Name the new list (or match an existing one).';
  if (found && (await hasItem(ctx, found.id, book.id)))
    errors.list_name = 'This book is already on that list.';
  if (Object.keys(errors).length > 0 || rank === 'invalid') return invalid(errors);
  const after = { bookId: book.id, slug: book.slug, rank, created: !found, featured: !!featured };
  const id = await audited(
    ctx,
    async (trx) => {
      const list =
        found ??
        (await insertList(trx, { kind: 'admin', name, source, listDate: date || null, ingestKey: key }));
      // "" leaves an existing list's flag alone: adding a book should not quietly unfeature a list.
      if (featured && !list.featured) await featureList(trx, list.id);
      await addListItem(trx, list.id, book.id, rank);
      return list.id;
    },
    (listId) => ({ action: 'list.book.add', entityType: 'list', entityId: listId, after }),
  );
  return ok(id);
}

/** SPEC "book remove list" and the Lists area's remove button; false when the book was not there. */
export async function removeBookFromList(ctx: CommandContext, listId: number, bookId: number) {
  const item = await findListItem(ctx.db, listId, bookId);
  if (!item) return false;
  const before = { bookId, rank: item.rank, position: item.position };
  await audited(ctx, (trx) => removeListItem(trx, listId, bookId), {
    action: 'list.book.remove',
    entityType: 'list',
    entityId: listId,
    before,
  });
  return true;
}

/** The "New list" form of the Lists area: a list and its books (one slug, ISBN or address a line). */
export interface NewListInput {
  name: string;
  description: string;
  list_date: string;
  is_featured: boolean;
  books: string;
}

/** At most this many books in one new list from the form (each line may ask the catalogs). */
export const NEW_LIST_MAX_BOOKS = 100;

/** Creates an admin list with its books in the order given (ranked 1, 2, 3…); every line must name a book. */
export async function createAdminList(
  ctx: CommandContext,
  finder: BookFinder,
  input: NewListInput,
): Promise<CommandResult<number>> {
  const name = input.name.trim();
  const date = input.list_date.trim();
  const refs = input.books
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const errors: FieldErrors = {};
  if (!name) errors.name = 'Name the list.';
  const badDate = dateError(date);
  if (badDate) errors.list_date = badDate;
  const key = listKey('admin', name || null, date || null);
  if (name && !badDate && (await findListByIngestKey(ctx.db, key)))
    errors.name = 'A list with this name and date exists: add the books there.';
  if (refs.length > NEW_LIST_MAX_BOOKS) errors.books = `Up to ${NEW_LIST_MAX_BOOKS} books at once.`;
  if (Object.keys(errors).length > 0) return invalid(errors);
  const books: Book[] = [];
  const missing: string[] = [];
  for (const ref of refs) {
    const book = await findBookForList(ctx, finder, ref);
    if (!book) missing.push(ref);
    else if (!books.some((known) => known.id === book.id)) books.push(book);
  }
  if (missing.length > 0)
    return invalid({
      books: `No book found for: ${missing.join(', ')}. Use a slug, an ISBN or a store address.`,
    });
  const id = await audited(
    ctx,
    async (trx) => {
      const list = await insertList(trx, {
        kind: 'admin',
        name,
        description: input.description.trim() || null,
        source: 'admin',
        listDate: date || null,
        featured: input.is_featured,
        ingestKey: key,
      });
      for (const [index, book] of books.entries()) await addListItem(trx, list.id, book.id, index + 1);
      return list.id;
    },
    (listId) => ({
      action: 'list.create',
      entityType: 'list',
      entityId: listId,
      after: { name, date: date || null, featured: input.is_featured, books: books.map((book) => book.slug) },
    }),
  );
  return ok(id);
}
