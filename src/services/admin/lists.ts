import { parseIsbn } from '../../domain/isbn.js';
import {
  deleteListAndItems,
  featureList,
  findListByIngestKey,
  findListItem,
  itemRanksOfList,
  setItemRank,
  updateList,
} from '../../store/admin-lists.js';
import { type Book, findBookBySlug } from '../../store/books.js';
import { addListItem, type ListItem, listItems, removeListItem } from '../../store/list-items.js';
import { insertList, type List } from '../../store/lists.js';
import type { Db } from '../../store/schema.js';
import type { BookCreator } from '../book-creator.js';
import type { ChangeEvents } from '../change-events.js';
import type { Resolver } from '../resolve.js';
import { ownPageSlug } from './book-ref.js';
import { AdminArea, type AuditActor, type CommandResult, type FieldErrors, invalid, ok } from './commands.js';
import {
  type AddListInput,
  dateError,
  type ListEditInput,
  listKey,
  NEW_LIST_MAX_BOOKS,
  type NewListInput,
  parseFlag,
  RANK_ERROR,
  wholeNumber,
} from './list-fields.js';
import { findAdminList, findListsForAdmin, type ListFilter, type ListRow } from './lists-read.js';

/** The catalog lookups that may create a book from an ISBN or a retailer address. */
export interface BookFinder {
  creator: Pick<BookCreator, 'byIsbn'>;
  resolver: Pick<Resolver, 'resolveUrl'>;
}

/** The Lists area and the lists section of a book's admin page: both ends of the same items. */
export class AdminLists extends AdminArea {
  constructor(
    db: Db,
    events: ChangeEvents,
    private readonly finder: BookFinder,
  ) {
    super(db, events);
  }

  find(id: number): Promise<List | null> {
    return findAdminList(this.db, id);
  }

  /** The Lists area's "New list": the list and its books at once; its id. */
  async create(actor: AuditActor, input: NewListInput): Promise<CommandResult<number>> {
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
    if (name && !badDate && (await findListByIngestKey(this.db, key)))
      errors.name = 'A list with this name and date exists: add the books there.';
    if (refs.length > NEW_LIST_MAX_BOOKS) errors.books = `Up to ${NEW_LIST_MAX_BOOKS} books at once.`;
    if (Object.keys(errors).length > 0) return invalid(errors);
    const books: Book[] = [];
    const missing: string[] = [];
    for (const ref of refs) {
      const book = await this.findBook(ref);
      if (!book) missing.push(ref);
      else if (!books.some((known) => known.id === book.id)) books.push(book);
    }
    if (missing.length > 0)
      return invalid({
        books: `No book found for: ${missing.join(', ')}. Use a slug, an ISBN or a store address.`,
      });
    const id = await this.audited(
      actor,
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
        after: {
          name,
          date: date || null,
          featured: input.is_featured,
          books: books.map((book) => book.slug),
        },
      }),
    );
    return ok(id);
  }

  search(filter: ListFilter): Promise<ListRow[]> {
    return findListsForAdmin(this.db, filter);
  }

  items(list: List): Promise<ListItem[]> {
    return listItems(this.db, list.id);
  }

  /** Edits a list; a list with a source is re-keyed, so ingest and "book add list" still find it. */
  async update(actor: AuditActor, list: List, input: ListEditInput): Promise<CommandResult> {
    const name = input.name.trim() || null;
    const date = input.list_date.trim() || null;
    const badDate = dateError(date ?? '');
    if (badDate) return invalid({ list_date: badDate });
    const key = list.source === null ? null : listKey(list.source, name, date);
    if (key !== null) {
      const other = await findListByIngestKey(this.db, key, list.id);
      if (other) return invalid({ name: 'Another list from this source has this name and date.' });
    }
    const after = {
      name,
      description: input.description.trim() || null,
      listDate: date,
      featured: input.is_featured,
    };
    const before = {
      name: list.name,
      description: list.description,
      listDate: list.listDate,
      featured: list.featured,
    };
    const columns = {
      name,
      description: after.description,
      list_date: date,
      is_featured: input.is_featured ? 1 : 0,
      ...(key === null ? {} : { ingest_key: key }),
    };
    await this.audited(actor, (trx) => updateList(trx, list.id, columns), {
      action: 'list.update',
      entityType: 'list',
      entityId: list.id,
      before,
      after,
    });
    return ok(undefined);
  }

  async feature(actor: AuditActor, list: List, featured: boolean): Promise<void> {
    await this.audited(actor, (trx) => updateList(trx, list.id, { is_featured: featured ? 1 : 0 }), {
      action: featured ? 'list.feature' : 'list.unfeature',
      entityType: 'list',
      entityId: list.id,
      before: { featured: list.featured },
      after: { featured },
    });
  }

  /** Deletes a list and its items; the audit keeps what it held, so it could be rebuilt by hand. */
  async delete(actor: AuditActor, list: List): Promise<void> {
    await this.audited(
      actor,
      async (trx) => {
        const items = await itemRanksOfList(trx, list.id);
        await deleteListAndItems(trx, list.id);
        return items;
      },
      (items) => ({
        action: 'list.delete',
        entityType: 'list',
        entityId: list.id,
        before: {
          ...list,
          editTokenHash: undefined,
          items: items.map((i) => ({ bookId: Number(i.book_id), rank: i.rank })),
        },
      }),
    );
  }

  /**
   * Adds the book an operator names (see `findBook`: an ISBN may create it from the catalogs) at an
   * optional rank, typed as text so a bad one gets its message beside the field.
   */
  async addBook(
    actor: AuditActor,
    list: List,
    input: { book_ref: string; rank: string },
  ): Promise<CommandResult<Book>> {
    const rank = wholeNumber(input.rank);
    if (rank === 'invalid') return invalid({ rank: RANK_ERROR });
    const book = await this.findBook(input.book_ref);
    if (!book) return invalid({ book_ref: 'No book found for this slug, ISBN or address.' });
    if (await this.hasItem(list.id, book.id))
      return invalid({ book_ref: 'This book is already on the list.' });
    const after = { bookId: book.id, slug: book.slug, rank };
    await this.audited(actor, (trx) => addListItem(trx, list.id, book.id, rank), {
      action: 'list.book.add',
      entityType: 'list',
      entityId: list.id,
      after,
    });
    return ok(book);
  }

  /** SPEC "book remove list" and the Lists area's remove button; false when the book was not there. */
  async removeBook(actor: AuditActor, listId: number, bookId: number): Promise<boolean> {
    const item = await findListItem(this.db, listId, bookId);
    if (!item) return false;
    const before = { bookId, rank: item.rank, position: item.position };
    await this.audited(actor, (trx) => removeListItem(trx, listId, bookId), {
      action: 'list.book.remove',
      entityType: 'list',
      entityId: listId,
      before,
    });
    return true;
  }

  async reorder(actor: AuditActor, list: List, ranks: ReadonlyMap<number, number | null>): Promise<void> {
    await this.audited(
      actor,
      async (trx) => {
        const before = await itemRanksOfList(trx, list.id);
        for (const [bookId, rank] of ranks) await setItemRank(trx, list.id, bookId, rank);
        await updateList(trx, list.id, {});
        return before;
      },
      (before) => ({
        action: 'list.reorder',
        entityType: 'list',
        entityId: list.id,
        before,
        after: Object.fromEntries(ranks),
      }),
    );
  }

  /** SPEC "book add list", from the book's page: the list with this source+name+date gets the book, else a new one is made. */
  async addToNamedList(actor: AuditActor, book: Book, input: AddListInput): Promise<CommandResult<number>> {
    const name = input.list_name.trim();
    const source = input.list_source.trim() || 'admin';
    const date = input.list_date.trim();
    const featured = parseFlag(input.is_featured);
    const rank = wholeNumber(input.rank);
    const key = listKey(source, name || null, date || null);
    const found = await findListByIngestKey(this.db, key);
    const errors: FieldErrors = {};
    if (featured === null) errors.is_featured = 'Choose yes or no.';
    if (rank === 'invalid') errors.rank = RANK_ERROR;
    const badDate = dateError(date);
    if (badDate) errors.list_date = badDate;
    else if (!found && !name) errors.list_name = 'Name the new list (or match an existing one).';
    if (found && (await this.hasItem(found.id, book.id)))
      errors.list_name = 'This book is already on that list.';
    if (Object.keys(errors).length > 0 || rank === 'invalid') return invalid(errors);
    const after = { bookId: book.id, slug: book.slug, rank, created: !found, featured: !!featured };
    const id = await this.audited(
      actor,
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

  /** A slug, an ISBN (created from the catalogs when new), this site's /book/ URL, or a retailer URL. */
  private async findBook(ref: string): Promise<Book | null> {
    const text = ref.trim();
    if (!text) return null;
    const slug = ownPageSlug(text);
    const own = slug ? await findBookBySlug(this.db, slug) : null;
    if (own) return own;
    const isbn = parseIsbn(text);
    if (isbn) {
      const outcome = await this.finder.creator.byIsbn(isbn, true);
      return outcome.kind === 'existing' || outcome.kind === 'created' ? outcome.book : null;
    }
    const bySlug = /^[\w-]+$/.test(text) ? await findBookBySlug(this.db, text.toLowerCase()) : null;
    if (bySlug) return bySlug;
    const resolved = await this.finder.resolver.resolveUrl(text, true);
    return resolved.status === 'found' ? resolved.book : null;
  }

  private async hasItem(listId: number, bookId: number): Promise<boolean> {
    return (await findListItem(this.db, listId, bookId)) !== undefined;
  }
}
