import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { foldText } from '../domain/text.js';
import { findBookById } from '../store/books.js';
import { addListItem, type ListItem, listItems, listSize, removeListItem } from '../store/list-items.js';
import {
  featuredLists,
  findListByPublicId,
  insertList,
  type List,
  type ListSummary,
  listsByTokenHashes,
  updateList,
} from '../store/lists.js';
import type { Db } from '../store/schema.js';
import type { WriteLimits, Writer } from './write-limits.js';

export type { ListItem } from '../store/list-items.js';
export type { List, ListSummary } from '../store/lists.js';

export function hashEditToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** "/list/k3x9q2m7w4ab-summer-reading": the public id decides, the words are for people and may change. */
export function listPath(list: Pick<List, 'publicId' | 'name'>): string {
  const words = foldText(list.name ?? '')
    .replace(/\s+/g, '-')
    .slice(0, 60)
    .replace(/-+$/, '');
  return words ? `/list/${list.publicId}-${encodeURIComponent(words)}` : `/list/${list.publicId}`;
}

export type Editable = { kind: 'ok'; list: List } | { kind: 'not_found' } | { kind: 'forbidden' };
/** The writer made as many of these changes as the window allows: nothing was stored. */
export type Refused = { kind: 'refused'; retryAfterSeconds: number };
export type BookChange =
  | Editable
  | Refused
  | { kind: 'no_book' }
  | { kind: 'not_in_list' }
  | { kind: 'full' };

/** A reader list holds at most this many books, as many as an ingested list may. */
export const MAX_LIST_BOOKS = 500;

/**
 * Lists without accounts: whoever holds a list's edit token may change it. The token is shown once
 * at creation and only its SHA-256 is stored, so a leaked database does not hand out edit rights.
 */
export class Lists {
  constructor(
    private readonly db: Db,
    private readonly writes: WriteLimits,
  ) {}

  /** A new list, charged to its writer (every creation hands out its own edit token, so none is a duplicate). */
  async create(input: { name: string | null; bookId: number | null }, writer: Writer) {
    const token = randomBytes(32).toString('base64url');
    if (input.bookId !== null && !(await findBookById(this.db, input.bookId)))
      return { kind: 'no_book' as const };
    const admission = await this.writes.admit('list', writer);
    if (admission.kind === 'refused') return admission;
    const list = await this.db.transaction().execute(async (trx) => {
      const created = await insertList(trx, {
        kind: 'reader',
        name: input.name,
        editTokenHash: hashEditToken(token),
      });
      if (input.bookId !== null) await addListItem(trx, created.id, input.bookId);
      return created;
    });
    return { kind: 'created' as const, list, token };
  }

  /** The list at public id `publicId` (never its numeric key: new lists must not be found by counting). */
  async get(publicId: string): Promise<{ list: List; items: ListItem[] } | null> {
    const list = await findListByPublicId(this.db, publicId);
    return list ? { list, items: await listItems(this.db, list.id) } : null;
  }

  /** The books of a list already found (the home page's featured lists). */
  items(list: List): Promise<ListItem[]> {
    return listItems(this.db, list.id);
  }

  /** Whether `token` may edit list `publicId`; ingested and admin lists have no token, so nobody may. */
  async editable(publicId: string, token: string | undefined): Promise<Editable> {
    const list = await findListByPublicId(this.db, publicId);
    if (!list) return { kind: 'not_found' };
    if (!token || !list.editTokenHash) return { kind: 'forbidden' };
    const given = Buffer.from(hashEditToken(token), 'hex');
    const stored = Buffer.from(list.editTokenHash, 'hex');
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) return { kind: 'forbidden' };
    return { kind: 'ok', list };
  }

  async update(
    publicId: string,
    token: string | undefined,
    changes: { name?: string | null; description?: string | null },
  ) {
    const access = await this.editable(publicId, token);
    if (access.kind === 'ok') await updateList(this.db, access.list.id, changes);
    return access;
  }

  /** Adds a book, charged to the writer; a book already in the list is a duplicate, charged nothing. */
  async addBook(
    publicId: string,
    token: string | undefined,
    bookId: number,
    writer: Writer,
  ): Promise<BookChange> {
    const access = await this.editable(publicId, token);
    if (access.kind !== 'ok') return access;
    const { id } = access.list;
    if (!(await findBookById(this.db, bookId))) return { kind: 'no_book' };
    const size = await listSize(this.db, id, bookId);
    if (size.contains) return access;
    if (size.books >= MAX_LIST_BOOKS) return { kind: 'full' };
    const admission = await this.writes.admit('list_book', writer);
    if (admission.kind === 'refused') return admission;
    await addListItem(this.db, id, bookId);
    return access;
  }

  async removeBook(publicId: string, token: string | undefined, bookId: number): Promise<BookChange> {
    const access = await this.editable(publicId, token);
    if (access.kind !== 'ok') return access;
    return (await removeListItem(this.db, access.list.id, bookId)) ? access : { kind: 'not_in_list' };
  }

  /** The lists a browser holds tokens for; unknown tokens are ignored (lists may have been deleted). */
  mine(tokens: readonly string[], bookId: number | null): Promise<ListSummary[]> {
    const hashes = [...new Set(tokens.map(hashEditToken))];
    return listsByTokenHashes(this.db, hashes, bookId);
  }

  featured(limit = 12): Promise<List[]> {
    return featuredLists(this.db, limit);
  }
}
