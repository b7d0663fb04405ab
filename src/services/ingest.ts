import { catalogEntryToRecord } from '../catalog/local.js';
import { parseIsbn } from '../domain/isbn.js';
import { parseRetailerUrl } from '../domain/retailer-urls/index.js';
import { matchKey } from '../domain/text.js';
import { bestBookByMatchKey, bestCatalogEntryByMatchKey } from '../store/book-matches.js';
import { type Book, bookRowToBook, findBookByIdentifier } from '../store/books.js';
import { findDestination } from '../store/destinations.js';
import { replaceIngestedList } from '../store/list-items.js';
import type { List } from '../store/lists.js';
import type { Db } from '../store/schema.js';
import type { BookCreator } from './book-creator.js';

export interface IngestBook {
  isbn_13?: string | null;
  isbn_10?: string | null;
  title?: string | null;
  author?: string | null;
  url?: string | null;
  rank?: number | null;
}

export interface IngestList {
  list_source: string;
  list_name?: string | null;
  list_date?: string | null;
  destination_slug?: string | null;
  is_featured?: boolean;
  books: IngestBook[];
}

export type RowOutcome =
  | { kind: 'found'; book: Book }
  | { kind: 'unresolved'; reason: string; detail: string };

const CONCURRENCY = 8;
const miss = (reason: string, detail: string): RowOutcome => ({ kind: 'unresolved', reason, detail });

/**
 * Ingest of partner lists (bestsellers, prize lists). Each row is resolved from the local catalog
 * first, creating books as needed (an ingest key is trusted, not a bot); the list is then swapped in
 * one transaction, so a re-sent list replaces its previous version and readers never see half of it.
 */
export class Ingest {
  constructor(
    private readonly db: Db,
    private readonly creator: BookCreator,
  ) {}

  /** Whether a slug (or alias) names a known destination, which an ingested list may be tied to. */
  async knowsDestination(slugOrAlias: string): Promise<boolean> {
    return (await findDestination(this.db, slugOrAlias)) !== null;
  }

  async run(input: IngestList): Promise<{ list: List; outcomes: RowOutcome[] }> {
    const outcomes = await this.resolveAll(input.books);
    const seen = new Set<number>();
    const items: Array<{ bookId: number; rank: number | null }> = [];
    input.books.forEach((row, i) => {
      const outcome = outcomes[i];
      if (outcome?.kind !== 'found' || seen.has(outcome.book.id)) return;
      seen.add(outcome.book.id);
      items.push({ bookId: outcome.book.id, rank: row.rank ?? null });
    });
    const key = JSON.stringify([input.list_source, input.list_name ?? '', input.list_date ?? '']);
    const list = await this.db.transaction().execute((trx) =>
      replaceIngestedList(
        trx,
        {
          kind: 'ingest',
          name: input.list_name ?? null,
          source: input.list_source,
          listDate: input.list_date ?? null,
          destinationSlug: input.destination_slug ?? null,
          featured: input.is_featured ?? false,
          ingestKey: key,
        },
        items,
      ),
    );
    return { list, outcomes };
  }

  /** A few rows at a time: enough to overlap database round trips, few enough to spare the pool. */
  private async resolveAll(rows: readonly IngestBook[]): Promise<RowOutcome[]> {
    const outcomes: RowOutcome[] = new Array(rows.length);
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const index = next++;
        outcomes[index] = await this.resolve(rows[index] ?? {});
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, rows.length) }, worker));
    return outcomes;
  }

  /** Tries each identifier the row carries, most precise first; the first that names a book wins. */
  async resolve(row: IngestBook): Promise<RowOutcome> {
    const attempts: RowOutcome[] = [];
    for (const raw of [row.isbn_13, row.isbn_10]) {
      if (!raw?.trim()) continue;
      const isbn = parseIsbn(raw);
      if (!isbn) {
        attempts.push(miss('invalid_isbn', `"${raw}" is not a valid ISBN.`));
        continue;
      }
      const outcome = await this.byIsbn(isbn.isbn13);
      if (outcome.kind === 'found') return outcome;
      attempts.push(outcome);
    }
    if (row.url?.trim()) {
      const outcome = await this.byUrl(row.url.trim());
      if (outcome.kind === 'found') return outcome;
      attempts.push(outcome);
    }
    if (row.title?.trim() && row.author?.trim()) {
      const outcome = await this.byTitleAuthor(row.title.trim(), row.author.trim());
      if (outcome.kind === 'found') return outcome;
      attempts.push(outcome);
    } else if (row.title?.trim()) {
      attempts.push(miss('author_missing', 'A title needs an author to identify a book.'));
    }
    return attempts[0] ?? miss('no_identifier', 'The row has no isbn_13, isbn_10, title and author, or url.');
  }

  private async byIsbn(isbn13: string): Promise<RowOutcome> {
    const isbn = parseIsbn(isbn13);
    if (!isbn) return miss('invalid_isbn', `"${isbn13}" is not a valid ISBN.`);
    const outcome = await this.creator.byIsbn(isbn, true);
    if (outcome.kind === 'existing' || outcome.kind === 'created')
      return { kind: 'found', book: outcome.book };
    return miss('isbn_unknown', `No source knows the ISBN ${isbn13}.`);
  }

  private async byUrl(url: string): Promise<RowOutcome> {
    const parsed = parseRetailerUrl(url);
    if (!parsed) return miss('invalid_url', 'The url is not an http(s) URL.');
    if (parsed.isbn) return this.byIsbn(parsed.isbn.isbn13);
    for (const [scheme, value] of Object.entries(parsed.identifiers)) {
      const book = await findBookByIdentifier(this.db, scheme, value);
      if (book) return { kind: 'found', book };
    }
    return miss('url_unresolved', `The ${parsed.store} URL does not name a book this service knows.`);
  }

  /** A saved book with the same title/author key first, then the most popular catalog entry. */
  private async byTitleAuthor(title: string, author: string): Promise<RowOutcome> {
    const key = matchKey(title, [author]);
    const notFound = miss(
      'title_author_unknown',
      `No book or catalog entry matches "${title}" by ${author}.`,
    );
    if (!key) return notFound;
    const saved = await bestBookByMatchKey(this.db, key);
    if (saved) return { kind: 'found', book: bookRowToBook(saved) };
    const entry = await bestCatalogEntryByMatchKey(this.db, key);
    if (!entry) return notFound;
    if (entry.isbn13) return this.byIsbn(entry.isbn13);
    return { kind: 'found', book: await this.creator.createFromRecord(catalogEntryToRecord(entry)) };
  }
}
