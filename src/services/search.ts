import { catalogEntryToRecord, type LocalCatalogProvider } from '../catalog/local.js';
import type { BookRecord, SearchQuery } from '../catalog/types.js';
import { type ParsedQuery, parseQuery, type TextQuery } from '../domain/query.js';
import { isConfident, type RankInput, rankCandidates, workGroupKey } from '../domain/ranking.js';
import { matchKey } from '../domain/text.js';
import { type Book, bookRowToBook, findBookByIsbn13 } from '../store/books.js';
import type { Store } from '../store/db.js';
import type { BookRow, CatalogEntryRow } from '../store/schema.js';
import {
  clickCounts,
  editionsByMatchKeys,
  logSearch,
  pinnedBooks,
  retrieveCandidates,
} from '../store/search.js';
import type { BookCreator } from './book-creator.js';

/** A text search over remote providers (the provider chain's `search`). */
export interface TextSearchSource {
  search(query: SearchQuery, signal?: AbortSignal): Promise<BookRecord[]>;
}

/** One edition that could answer the query: a saved book, a catalog entry or a provider record. */
export interface Candidate extends RankInput {
  record: BookRecord;
  book: Book | null;
  relevance: number;
}

export interface SearchOutcome {
  query: ParsedQuery;
  /** Best edition of each work, best work first. */
  results: Candidate[];
  /** Set when the top result is sure enough to go straight to it. */
  confident: Candidate | null;
}

export interface SearchOptions {
  /** Provider search is asked only when local results are weak, within this budget. */
  remoteTimeoutMs?: number;
}

function bookToRecord(book: Book): BookRecord {
  return {
    source: 'book',
    isbn13: book.isbn13,
    isbn10: book.isbn10,
    title: book.title,
    subtitle: book.subtitle,
    authors: book.authors,
    publishedDate: book.publishedDate,
    publisher: book.publisher,
    coverUrl: book.coverUrl,
    language: book.language,
    format: null,
    pages: book.pages,
    description: book.description,
    identifiers: {},
    workKey: null,
  };
}

function candidate(
  record: BookRecord,
  book: Book | null,
  popularity: number,
  fallbackKey: string,
): Candidate {
  return {
    record,
    book,
    title: record.title,
    authors: record.authors,
    format: book?.format ?? record.format,
    language: record.language,
    groupKey: workGroupKey(record.title, record.authors) ?? fallbackKey,
    popularity,
    clicks: 0,
    pinned: false,
    saved: book !== null,
    hasCover: Boolean(record.coverUrl),
    series: record.identifiers.series ?? null,
    originalTitle: record.identifiers.original_title ?? null,
    relevance: 0,
  };
}

const fromBookRow = (row: BookRow) => {
  const book = bookRowToBook(row);
  return candidate(bookToRecord(book), book, row.popularity, `book:${book.id}`);
};
const fromEntryRow = (row: CatalogEntryRow) =>
  candidate(catalogEntryToRecord(row), null, row.popularity, `entry:${row.id}`);

/**
 * A saved book standing for a catalog entry of its edition keeps what only the catalog knows:
 * series note, original title and ratings. Creating the book must not demote it in search.
 */
function savedOverEntry(saved: Candidate, entry: Candidate): Candidate {
  return {
    ...saved,
    pinned: saved.pinned || entry.pinned,
    series: saved.series ?? entry.series,
    originalTitle: saved.originalTitle ?? entry.originalTitle,
    popularity: Math.max(saved.popularity, entry.popularity),
  };
}

/** One candidate per ISBN (a saved book wins over a catalog entry of the same edition). */
function dedupe(candidates: Candidate[]): Candidate[] {
  const byKey = new Map<string, Candidate>();
  for (const c of candidates) {
    const key = c.record.isbn13
      ? `isbn:${c.record.isbn13}`
      : c.book
        ? `book:${c.book.id}`
        : `${c.groupKey}|${c.title}`;
    const seen = byKey.get(key);
    if (!seen) byKey.set(key, c);
    else if (!seen.book && c.book) byKey.set(key, savedOverEntry(c, seen));
    else if (seen.book && !c.book) byKey.set(key, savedOverEntry(seen, c));
    else if (c.pinned) seen.pinned = true;
  }
  return [...byKey.values()];
}

/**
 * Free-text and ISBN search over saved books, the local catalog and (when local answers are weak)
 * the providers' search APIs. Retrieval is the database's; order is the one ranking function's.
 */
export class SearchService {
  constructor(
    private readonly store: Store,
    private readonly local: LocalCatalogProvider,
    readonly creator: BookCreator,
    private readonly remote: TextSearchSource | null = null,
    private readonly options: SearchOptions = {},
  ) {}

  async search(text: string, limit = 10): Promise<SearchOutcome> {
    const query = parseQuery(text);
    if (query.kind === 'isbn') return this.byIsbn(query);
    if (query.kind !== 'text') return { query, results: [], confident: null };
    const local = await this.localCandidates(query);
    let groups = rankCandidates(query, local);
    if (!isConfident(groups) && (groups[0]?.relevance ?? 0) < 0.85 && this.remote) {
      const remote = await this.remoteCandidates(query);
      if (remote.length > 0) groups = rankCandidates(query, dedupe([...local, ...remote]));
    }
    const results = groups.slice(0, limit).map((group) => ({ ...group.best, relevance: group.relevance }));
    return { query, results, confident: isConfident(groups) ? (results[0] ?? null) : null };
  }

  private async byIsbn(query: Extract<ParsedQuery, { kind: 'isbn' }>): Promise<SearchOutcome> {
    const book = await findBookByIsbn13(this.store.db, query.isbn.isbn13);
    const record = book ? bookToRecord(book) : await this.local.lookupIsbn(query.isbn);
    if (!record) return { query, results: [], confident: null };
    const found = { ...candidate(record, book, 0, `isbn:${query.isbn.isbn13}`), relevance: 1 };
    return { query, results: [found], confident: found };
  }

  private async localCandidates(query: TextQuery): Promise<Candidate[]> {
    const [retrieved, pins] = await Promise.all([
      retrieveCandidates(this.store, query.tokens),
      pinnedBooks(this.store.db, query.key),
    ]);
    const pinned = pins.map((row) => ({ ...fromBookRow(row), pinned: true }));
    const found = [...pinned, ...retrieved.books.map(fromBookRow), ...retrieved.entries.map(fromEntryRow)];
    // Retrieval may return a work's large print but not its paperback: fetch the leading works' families.
    const leading = rankCandidates(query, found).slice(0, 8);
    const keys = new Set(leading.flatMap((g) => g.editions.map((e) => matchKey(e.title, e.authors) ?? '')));
    keys.delete('');
    const family = await editionsByMatchKeys(this.store.db, [...keys]);
    const all = dedupe([...found, ...family.books.map(fromBookRow), ...family.entries.map(fromEntryRow)]);
    const ids = all.flatMap((c) => (c.book ? [c.book.id] : []));
    const clicks = await clickCounts(this.store.db, ids);
    for (const c of all) if (c.book) c.clicks = clicks.get(c.book.id) ?? 0;
    return all;
  }

  private async remoteCandidates(query: TextQuery): Promise<Candidate[]> {
    const budget = this.options.remoteTimeoutMs ?? 1500;
    const split = query.splits[1] ?? query.splits[0];
    const request: SearchQuery = {
      text: query.raw,
      title: split?.title,
      author: split?.author ?? undefined,
      limit: 10,
    };
    const signal = AbortSignal.timeout(budget);
    const timeout = new Promise<BookRecord[]>((resolve) =>
      setTimeout(() => resolve([]), budget + 50).unref(),
    );
    const records = await Promise.race([this.remote!.search(request, signal).catch(() => []), timeout]);
    return records.filter((r) => r.title).map((r, i) => candidate(r, null, 0, `remote:${r.isbn13 ?? i}`));
  }

  /** Logs a search; the id is the `sfid` its result links carry. */
  log(outcome: SearchOutcome, channel: 'page' | 'api', source: string | null): Promise<number> {
    const { query } = outcome;
    const split = query.kind === 'text' ? (query.splits[1] ?? query.splits[0]) : undefined;
    const top = outcome.results[0]?.record;
    return logSearch(this.store.db, {
      query: query.raw,
      query_key: query.key,
      parsed_title: split?.title.slice(0, 500) ?? null,
      parsed_author: split?.author?.slice(0, 300) ?? null,
      kind: query.kind,
      result_count: outcome.results.length,
      top_book_key: top ? (top.isbn13 ?? top.title).slice(0, 200) : null,
      source: source,
      channel,
    });
  }

  /** The saved book for a candidate, creating it when `mayCreate` (never for automated clients). */
  async bookFor(result: Candidate, mayCreate: boolean): Promise<Book | null> {
    if (result.book) return result.book;
    if (result.record.isbn13) {
      const existing = await findBookByIsbn13(this.store.db, result.record.isbn13);
      if (existing) return existing;
    }
    return mayCreate ? this.creator.createFromRecord(result.record) : null;
  }
}
