import {
  deleteListAndItems,
  findListByIngestKey,
  itemRanksOfList,
  setItemRank,
  updateList,
} from '../../store/admin-lists.js';
import type { Book } from '../../store/books.js';
import { type ListItem, listItems } from '../../store/list-items.js';
import type { List } from '../../store/lists.js';
import type { Db } from '../../store/schema.js';
import type { ChangeEvents } from '../change-events.js';
import { AdminArea, type AuditActor, type CommandResult, type FieldErrors, invalid, ok } from './commands.js';
import {
  type AddListInput,
  addBookToList,
  addBookToNamedList,
  type BookFinder,
  createAdminList,
  dateError,
  findBookForList,
  listKey,
  type NewListInput,
  RANK_ERROR,
  removeBookFromList,
  wholeNumber,
} from './lists.js';
import { findAdminList, findListsForAdmin, type ListFilter, type ListRow } from './lists-read.js';

export interface ListEditInput {
  name: string;
  description: string;
  list_date: string;
  is_featured: boolean;
}

/**
 * The reorder form: `books` names the items it showed (comma-separated ids) and `rank_{id}` holds each
 * one's rank; an emptied rank means unranked. Items added since the page was loaded keep their rank.
 */
export function parseRanks(
  body: Readonly<Record<string, string>>,
): { ranks: Map<number, number | null> } | { errors: FieldErrors } {
  const ranks = new Map<number, number | null>();
  const errors: FieldErrors = {};
  for (const id of (body.books ?? '').split(',').filter(Boolean)) {
    const bookId = wholeNumber(id, Number.MAX_SAFE_INTEGER);
    if (typeof bookId !== 'number') continue;
    const rank = wholeNumber(body[`rank_${id}`] ?? '');
    if (rank === 'invalid') errors[`rank_${id}`] = RANK_ERROR;
    else ranks.set(bookId, rank);
  }
  return Object.keys(errors).length > 0 ? { errors } : { ranks };
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
  create(actor: AuditActor, input: NewListInput): Promise<CommandResult<number>> {
    return createAdminList(this.as(actor), this.finder, input);
  }

  search(filter: ListFilter): Promise<ListRow[]> {
    return findListsForAdmin(this.db, filter);
  }

  items(list: List): Promise<ListItem[]> {
    return listItems(this.db, list.id);
  }

  /** Edits a list; a list with a source is re-keyed, so ingest and "book add list" still find it. */
  async update(actor: AuditActor, list: List, input: ListEditInput) {
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
   * Adds the book an operator names (see `findBookForList`: an ISBN may create it from the catalogs)
   * at an optional rank, typed as text so a bad one gets its message beside the field.
   */
  async addBook(actor: AuditActor, list: List, input: { book_ref: string; rank: string }) {
    const rank = wholeNumber(input.rank);
    if (rank === 'invalid') return invalid({ rank: RANK_ERROR });
    const ctx = this.as(actor);
    const book = await findBookForList(ctx, this.finder, input.book_ref);
    if (!book) return invalid({ book_ref: 'No book found for this slug, ISBN or address.' });
    return addBookToList(ctx, list, book, rank);
  }

  /** False when the book was not on the list. */
  removeBook(actor: AuditActor, listId: number, bookId: number): Promise<boolean> {
    return removeBookFromList(this.as(actor), listId, bookId);
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

  /** SPEC "book add list", from the book's page. */
  addToNamedList(actor: AuditActor, book: Book, input: AddListInput): Promise<CommandResult<number>> {
    return addBookToNamedList(this.as(actor), book, input);
  }
}
