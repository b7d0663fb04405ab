import { onBehalfOf, type Requester } from '../../catalog/requester.js';
import type { BookRecord } from '../../catalog/types.js';
import { editionIdentifiers } from '../../domain/identifiers.js';
import { parseIsbn } from '../../domain/isbn.js';
import {
  addBookIdentifiers,
  type Book,
  findBookByAnyIdentifier,
  findBookById,
  findBookByIdentifier,
} from '../../store/books.js';
import type { Db } from '../../store/schema.js';
import { canonicalEditionOf } from '../../store/works.js';
import type { BookCreator } from '../book-creator.js';
import type { MayCreate } from '../write-limits.js';
import { findCatalogEntryByIdentifier } from './catalog-identifiers.js';

/** A provider that can name the edition behind one identifier scheme (Open Library, Google). */
export interface EditionLookup {
  scheme: string;
  /** `country`: the storefront the URL named (two letters), for a store that answers per country. */
  lookup(value: string, signal: AbortSignal, country: string | null): Promise<BookRecord | null>;
}

export interface IdentifierDeps {
  db: Db;
  creator: BookCreator;
  lookups: readonly EditionLookup[];
  /** Budget of one provider lookup. */
  timeoutMs: number;
}

export type IdentifierMatch = { book: Book; via: 'identifier' | 'catalog' | 'provider' } | null;

/**
 * Schemes a saved book or a filed answer may still hold an identifier under from before it had its
 * own: until migration 0034 an Apple Books audiobook's id was kept as `apple_books`. Apple numbers
 * ebooks and audiobooks in one sequence, so the same value names the same product.
 */
const EARLIER_SCHEMES: Readonly<Record<string, readonly string[]>> = { apple_audiobook: ['apple_books'] };

/** Each identifier, then the same value under its earlier schemes: [scheme asked, value, scheme]. */
const withEarlier = (pairs: ReadonlyArray<[string, string]>): Array<[string, string, string]> =>
  pairs.flatMap(([scheme, value]) => [
    [scheme, value, scheme] as [string, string, string],
    ...(EARLIER_SCHEMES[scheme] ?? []).map((earlier): [string, string, string] => [earlier, value, scheme]),
  ]);

/** An Open Library work names no edition; the work's canonical edition stands for it. */
async function canonicalBookOfWork(db: Db, workKey: string): Promise<Book | null> {
  const canonicalId = await canonicalEditionOf(db, { workKey });
  return canonicalId ? findBookById(db, canonicalId) : null;
}

/**
 * Ties identifiers (asin, goodreads, ol_edition, google_volume, …) to one book: a saved book holding
 * one, else a catalog entry holding one, else a provider that knows it. Creation only when
 * `mayCreate` (never for automated clients); provider lookups only then too, so bots stay cheap.
 *
 * Every lookup is an index probe: saved books by `book_identifiers` (scheme, value), catalog entries
 * by the identifier index (`catalog_identifiers`), which importers fill and which a provider's answer
 * joins once it became a book, so the next lookup of any identifier it carried asks no provider.
 */
export class IdentifierResolver {
  // Concurrent first visits of one ISBN-less edition share one creation.
  private readonly inflight = new Map<string, Promise<Book | null>>();

  constructor(private readonly deps: IdentifierDeps) {}

  /**
   * `requester`: the client address the providers are asked for (its share of their budgets);
   * `country`: the storefront the URL named, asked for where a store answers per storefront.
   */
  async resolve(
    identifiers: Record<string, string>,
    mayCreate: MayCreate,
    requester: Requester = null,
    country: string | null = null,
  ): Promise<IdentifierMatch> {
    const pairs = Object.entries(identifiers);
    for (const [scheme, value] of withEarlier(pairs)) {
      const saved =
        (await findBookByIdentifier(this.deps.db, scheme, value)) ??
        (scheme === 'ol_work' ? await canonicalBookOfWork(this.deps.db, value) : null);
      if (saved) return { book: saved, via: 'identifier' };
    }
    for (const [asked, value, scheme] of withEarlier(pairs)) {
      const record = await findCatalogEntryByIdentifier(this.deps.db, asked, value);
      const book = record ? await this.materialise(record, scheme, value, mayCreate, requester) : null;
      if (book) return { book, via: 'catalog' };
    }
    if (!mayCreate) return null;
    for (const [scheme, value] of pairs) {
      const record = await this.askProviders(scheme, value, requester, country);
      const book = record ? await this.materialise(record, scheme, value, mayCreate, requester) : null;
      if (book) return { book, via: 'provider' };
    }
    return null;
  }

  private async askProviders(
    scheme: string,
    value: string,
    requester: Requester,
    country: string | null,
  ): Promise<BookRecord | null> {
    for (const provider of this.deps.lookups.filter((lookup) => lookup.scheme === scheme)) {
      try {
        const signal = onBehalfOf(requester, AbortSignal.timeout(this.deps.timeoutMs));
        const record = await provider.lookup(value, signal, country);
        if (record?.title) return record;
      } catch {
        // An outage or a timeout only costs this source its say; the URL may still resolve otherwise.
      }
    }
    return null;
  }

  /** The saved book for a record: by its ISBN (the creator dedupes), else from the record itself. */
  private async materialise(
    record: BookRecord,
    scheme: string,
    value: string,
    mayCreate: MayCreate,
    requester: Requester,
  ): Promise<Book | null> {
    const isbn = record.isbn13 ? parseIsbn(record.isbn13) : null;
    let book: Book | null = null;
    if (isbn) {
      const outcome = await this.deps.creator.byIsbn(isbn, mayCreate, requester);
      if (outcome.kind === 'existing' || outcome.kind === 'created') book = outcome.book;
      else if (outcome.kind === 'not_created') return null;
    }
    if (!book && mayCreate) book = await this.createOnce(record, scheme, value, mayCreate);
    if (book && mayCreate) {
      // Remember the identifier on the book, so the next visit is one indexed lookup, and file the
      // provider's answer with every identifier it carried (a no-op for the catalog's own records).
      await addBookIdentifiers(this.deps.db, book.id, { [scheme]: value });
      await this.deps.creator.rememberAnswer({
        ...record,
        identifiers: { ...record.identifiers, [scheme]: value },
      });
    }
    return book;
  }

  private createOnce(
    record: BookRecord,
    scheme: string,
    value: string,
    mayCreate: MayCreate,
  ): Promise<Book | null> {
    const key = `${scheme}:${value}`;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const creation = (async () => {
      // An edition without an ISBN may already be a book under another of its identifiers (the entry
      // of an edition with two OCLC numbers, reached by the second one).
      const others = record.isbn13 ? [] : editionIdentifiers(record.identifiers);
      const existing = await findBookByAnyIdentifier(this.deps.db, [[scheme, value], ...others]);
      if (existing) return existing;
      return this.deps.creator.createIfAllowed(
        { ...record, identifiers: { ...record.identifiers, [scheme]: value } },
        mayCreate,
      );
    })().finally(() => this.inflight.delete(key));
    this.inflight.set(key, creation);
    return creation;
  }
}
