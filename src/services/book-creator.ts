import type { IsbnAnswer } from '../catalog/chain.js';
import { isProviderAnswer, type LocalCatalogProvider, providerAnswerEntry } from '../catalog/local.js';
import { type Requester, requesterSignal } from '../catalog/requester.js';
import type { BookRecord } from '../catalog/types.js';
import type { Isbn } from '../domain/isbn.js';
import { baseSlug, slugCandidate } from '../domain/slug.js';
import { matchKey } from '../domain/text.js';
import { type Book, findBookByIsbn13, insertBook, takenSlugs } from '../store/books.js';
import { saveProviderEntry } from '../store/catalog-identifiers.js';
import { nowIso, type Store } from '../store/db.js';
import { newBookFacts } from '../store/new-book.js';
import { type MayCreate, mayCreateNow } from './write-limits.js';

/** Remote metadata for an ISBN (the provider chain), or null when no source knows it. */
export interface IsbnLookup {
  /** `signal` carries whom the lookup is for (see catalog/requester.ts). */
  lookupIsbn(isbn: Isbn, signal?: AbortSignal): Promise<BookRecord | null>;
  /** The same, telling whether some source could not be asked (the provider chain's). */
  lookupIsbnAnswer?(isbn: Isbn, signal?: AbortSignal): Promise<IsbnAnswer>;
}

/** A lookup's answer from any `IsbnLookup` (one without `lookupIsbnAnswer` asks every source it has). */
export async function isbnAnswer(
  lookup: IsbnLookup,
  isbn: Isbn,
  requester: Requester = null,
): Promise<IsbnAnswer> {
  const signal = requesterSignal(requester);
  if (lookup.lookupIsbnAnswer) return lookup.lookupIsbnAnswer(isbn, signal);
  return { record: await lookup.lookupIsbn(isbn, signal), limited: false };
}

export type IsbnOutcome =
  | { kind: 'existing'; book: Book }
  | { kind: 'created'; book: Book }
  | { kind: 'not_created' }
  /** `limited`: some source could not be asked now (its request budget or quota is spent). */
  | { kind: 'unknown'; limited: boolean };

const MAX_SLUG_ATTEMPTS = 8;
/** Slug alternatives checked in one query: an ISBN book's second is its own ("…-9780…"), so one query nearly always does. */
const SLUG_CHOICES = 16;

/** SLUG_CHOICES of a book's slug alternatives, from the `first`. */
const slugChoices = (base: string, first: number, isbn13: string | null) =>
  Array.from({ length: SLUG_CHOICES }, (_, i) => slugCandidate(base, first + i, isbn13));

/**
 * Creates books on demand (SPEC 3). The local catalog answers first, in milliseconds; remote
 * providers only for ISBNs it does not hold. Concurrent first visits in this process share one
 * creation; across processes the unique ISBN decides and the loser loads the winner's book.
 */
export class BookCreator {
  private readonly inflight = new Map<string, Promise<IsbnOutcome>>();

  constructor(
    private readonly store: Store,
    private readonly local: LocalCatalogProvider,
    private readonly remote: IsbnLookup | null,
    /** Told about every book this process created (search answers that showed its entry change). */
    private readonly onCreated: (book: Book) => void = () => undefined,
  ) {}

  /**
   * `mayCreate` is false for automated clients: they may read existing books, never create one; a
   * visitor's allowance is charged one creation only when a source knows the ISBN.
   * `requester`: the client address the providers are asked for (its share of their budgets).
   */
  async byIsbn(isbn: Isbn, mayCreate: MayCreate, requester: Requester = null): Promise<IsbnOutcome> {
    const existing = await findBookByIsbn13(this.store.db, isbn.isbn13);
    if (existing) return { kind: 'existing', book: existing };
    if (!mayCreate) return { kind: 'not_created' };
    const pending = this.inflight.get(isbn.isbn13);
    if (pending) return pending;
    const creation = this.createFromSources(isbn, mayCreate, requester).finally(() =>
      this.inflight.delete(isbn.isbn13),
    );
    this.inflight.set(isbn.isbn13, creation);
    return creation;
  }

  private async createFromSources(
    isbn: Isbn,
    mayCreate: MayCreate,
    requester: Requester,
  ): Promise<IsbnOutcome> {
    const local = await this.local.lookupIsbn(isbn);
    const answer =
      local || !this.remote
        ? { record: local, limited: false }
        : await isbnAnswer(this.remote, isbn, requester);
    const record = answer.record;
    if (!record?.title) return { kind: 'unknown', limited: answer.limited };
    if (!(await mayCreateNow(mayCreate))) return { kind: 'not_created' };
    const book = await this.createFromRecord({ ...record, isbn13: isbn.isbn13, isbn10: isbn.isbn10 });
    return { kind: 'created', book };
  }

  /** A record's book for a caller that may be out of creations: null when `mayCreate` refuses. */
  async createIfAllowed(record: BookRecord, mayCreate: MayCreate): Promise<Book | null> {
    return (await mayCreateNow(mayCreate)) ? this.createFromRecord(record) : null;
  }

  /**
   * Saves a record as a book with a fresh slug; returns the existing book if its ISBN won a race. A
   * provider's answer is also filed in the catalog with its identifiers (see `rememberAnswer`).
   */
  async createFromRecord(record: BookRecord): Promise<Book> {
    const book = await this.saveBook(record);
    await this.rememberAnswer(record);
    return book;
  }

  /**
   * Files a remote provider's answer in the catalog (an entry of source `provider`, unless an entry
   * with its key exists) and every identifier it carries in the identifier index, so the next lookup
   * of any of them (a Google volume, a second OCLC number, an LCCN) is answered locally. The local
   * catalog's own records are already there and are left alone.
   */
  async rememberAnswer(record: BookRecord): Promise<void> {
    if (!isProviderAnswer(record)) return;
    const filed = providerAnswerEntry(record, nowIso());
    if (filed) await saveProviderEntry(this.store.db, filed.entry, filed.identifiers);
  }

  private async saveBook(record: BookRecord): Promise<Book> {
    const key = matchKey(record.title, record.authors);
    const base = baseSlug(record.title, record.authors);
    // What the new book needs, asked at once: its free copies, its work and which first slugs are taken.
    const firstChoices = slugChoices(base, 0, record.isbn13);
    const facts = await newBookFacts(this.store, {
      matchKey: key,
      workKey: record.workKey,
      slugs: firstChoices,
    });
    const full: BookRecord = { ...record, identifiers: { ...facts.freeCopies, ...record.identifiers } };
    const work = facts.workId ?? { workKey: record.workKey, title: record.title };
    let slug =
      firstChoices.find((candidate) => !facts.takenSlugs.has(candidate)) ??
      (await this.freeSlug(base, record.isbn13, SLUG_CHOICES));
    for (let attempt = 0; attempt < MAX_SLUG_ATTEMPTS; attempt++) {
      const outcome = await insertBook(this.store, { slug, work, record: full, matchKey: key });
      if (outcome.kind === 'created') {
        this.onCreated(outcome.book);
        return outcome.book;
      }
      if (outcome.kind === 'isbn_taken' && record.isbn13) {
        const winner = await findBookByIsbn13(this.store.db, record.isbn13);
        if (winner) return winner;
      }
      slug = await this.freeSlug(base, record.isbn13);
    }
    throw new Error(`could not choose a free slug for "${base}"`);
  }

  /** The first of the slug's alternatives from `first` on that no book holds, asked SLUG_CHOICES at a time. */
  private async freeSlug(base: string, isbn13: string | null, first = 0): Promise<string> {
    for (let from = first; ; from += SLUG_CHOICES) {
      const candidates = slugChoices(base, from, isbn13);
      const taken = await takenSlugs(this.store.db, candidates);
      const free = candidates.find((candidate) => !taken.has(candidate));
      if (free) return free;
    }
  }
}
