import type { LocalCatalogProvider } from '../../catalog/local.js';
import type { Requester } from '../../catalog/requester.js';
import type { BookRecord } from '../../catalog/types.js';
import { editionIdentifiers } from '../../domain/identifiers.js';
import { type ParsedQuery, parseQuery, type TextQuery } from '../../domain/query.js';
import { queryScores, rankCandidates } from '../../domain/ranking.js';
import { foldText, matchKey } from '../../domain/text.js';
import { type Book, findBookByAnyIdentifier, findBookByIsbn13 } from '../../store/books.js';
import { readTogether, type Store } from '../../store/db.js';
import { logSearch, type NewSearch } from '../../store/search/log.js';
import { familiesWithClicks } from '../../store/search/rows.js';
import { type BookCreator, type IsbnLookup, isbnAnswer } from '../book-creator.js';
import type { FairTurns } from '../fair-turns.js';
import type { MayCreate } from '../write-limits.js';
import { type AnswerCache, MemoryAnswerCache } from './cache.js';
import {
  apartVolumes,
  bookToRecord,
  type Candidate,
  candidate,
  dedupe,
  fromBookRow,
  fromEntryRow,
} from './candidates.js';
import { forgetListedWords, forgetWordCounts } from './listed-words.js';
import type { SearchLogRecorder } from './log.js';
import { PinnedKeys } from './pinned-keys.js';
import {
  type Completeness,
  PROVIDER_CACHE_TTL_MS,
  ProviderSearch,
  type TextSearchSource,
} from './providers.js';
import type { ResultCacheStats, SearchResultCache } from './results.js';
import { retrieveCandidates } from './retrieval.js';

export type { Candidate } from './candidates.js';

import type { SearchVocabulary } from './vocabulary.js';
import { confident, volumeFirst } from './volumes.js';

export interface SearchOutcome {
  query: ParsedQuery;
  /** Best edition of each work, best work first. */
  results: Candidate[];
  /** Set when the top result is sure enough to go straight to it. */
  confident: Candidate | null;
  /**
   * A provider that would have been asked could not be (its request budget or quota is spent, or
   * its circuit is open): the results come from the local catalog and earlier answers only.
   */
  incomplete: boolean;
  /**
   * Set when the results are for a respelt or shortened reading of the query, not the words as
   * typed: that reading's text, for "Showing results for … · Search instead for …" (issue 44).
   */
  readAs?: string | null;
}

export interface SearchOptions {
  /** Provider search is asked only when local results are weak, within this budget. */
  remoteTimeoutMs?: number;
  /** ISBNs neither saved nor in the local catalog are asked of the providers (the provider chain). */
  isbnLookup?: IsbnLookup | null;
  /** Spelling vocabulary for queries asked of providers; without it words are asked as typed. */
  vocabulary?: SearchVocabulary | null;
  /** Provider answers per normalised question (default: in-process, 10 minutes). */
  cache?: AnswerCache;
  /** Where `record` buffers the search log; without it `record` writes at once. */
  log?: SearchLogRecorder;
  /** Whole answers per query text and limit for a short time (see `SearchResultCache`); none without. */
  results?: SearchResultCache<SearchOutcome> | null;
  /** Where searches take their turns on the event loop (see `FairTurns`); without it they start at once. */
  turns?: FairTurns | null;
}

/**
 * A confident local result this relevant names a title exactly and is not improved by asking the
 * providers; a series volume (0.85) or a title's first words (up to 0.92) may be a book the
 * catalog lacks, and an unsure one may be told apart by what the providers know.
 */
const LOCAL_ENOUGH = 0.95;

const DONE = Promise.resolve();

/** The outcome, its list and its results made read-only: a cached answer is shared by every caller. */
function frozen(outcome: SearchOutcome): SearchOutcome {
  for (const result of outcome.results) Object.freeze(result);
  Object.freeze(outcome.results);
  return Object.freeze(outcome);
}

/** The typed text with each word retrieval respelt replaced by its correction, or left out (null). */
function respeltText(raw: string, respelt: ReadonlyMap<string, string | null>): string {
  return raw
    .replace(/[\p{L}\p{M}\p{N}]+/gu, (word) => {
      const folded = foldText(word);
      return respelt.has(folded) ? (respelt.get(folded) ?? '') : word;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The search log's row for an outcome. */
function searchLogRow(outcome: SearchOutcome, channel: 'page' | 'api', source: string | null): NewSearch {
  const { query } = outcome;
  const split = query.kind === 'text' ? (query.splits[1] ?? query.splits[0]) : undefined;
  const top = outcome.results[0]?.record;
  return {
    query: query.raw,
    query_key: query.key,
    parsed_title: split?.title.slice(0, 500) ?? null,
    parsed_author: split?.author?.slice(0, 300) ?? null,
    kind: query.kind,
    result_count: outcome.results.length,
    top_book_key: top ? (top.isbn13 ?? top.title).slice(0, 200) : null,
    source,
    channel,
  };
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
  ) {
    this.providers = remote
      ? new ProviderSearch(
          remote,
          options.cache ?? new MemoryAnswerCache(PROVIDER_CACHE_TTL_MS),
          options.vocabulary ?? null,
          options.remoteTimeoutMs ?? 1500,
        )
      : null;
  }

  private readonly providers: ProviderSearch | null;
  private readonly pinned = new PinnedKeys();

  /**
   * The answer for a query text: from the result cache when the same text and limit were answered
   * lately and nothing changed since, else searched (and cached when complete). A cached answer is
   * shared by every caller: it is frozen and must not be changed.
   */
  async search(
    text: string,
    limit = 10,
    requester: Requester = null,
    /** The words exactly as typed: no respelling, no dropped words ("Search instead for …"). */
    asTyped = false,
  ): Promise<SearchOutcome> {
    const cache = this.options.results;
    if (!cache) return this.inTurn(() => this.searchNow(text, limit, { complete: true }, requester, asTyped));
    // Everything a search depends on is read from the text as parseQuery keeps it (trimmed, bounded).
    const key = `${asTyped ? 'typed ' : ''}${limit} ${text.trim().slice(0, 500)}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const mark = cache.mark();
    const progress: Completeness = { complete: true };
    const outcome = await this.inTurn(() => this.searchNow(text, limit, progress, requester, asTyped));
    if (progress.complete && outcome.query.kind !== 'empty' && outcome.query.kind !== 'url') {
      cache.set(key, frozen(outcome), mark);
    }
    return outcome;
  }

  /** A search that is not answered from the cache holds the event loop: it takes its turn. */
  private inTurn(search: () => Promise<SearchOutcome>): Promise<SearchOutcome> {
    return this.options.turns ? this.options.turns.run(search) : search();
  }

  /** Drops every cached answer and the list of pinned queries (a book, a pin or the catalog changed). */
  invalidate(): void {
    this.options.results?.clear();
    this.pinned.forget();
    forgetWordCounts(this.store);
  }

  /** Drops every cached answer and the catalog's words kept for corrections (the catalog changed). */
  catalogChanged(): void {
    this.invalidate();
    forgetListedWords(this.store);
  }

  /** Searches that waited for a later turn of the event loop since start (see `FairTurns`). */
  deferredSearches(): number {
    return this.options.turns?.deferred() ?? 0;
  }

  /** The result cache's totals (zeros when it is off). */
  cacheStats(): ResultCacheStats {
    return this.options.results?.stats() ?? { hits: 0, misses: 0, entries: 0, clears: 0 };
  }

  private async searchNow(
    text: string,
    limit: number,
    progress: Completeness,
    requester: Requester,
    asTyped = false,
  ): Promise<SearchOutcome> {
    const started = Date.now();
    const query = parseQuery(text);
    if (query.kind === 'isbn') return this.byIsbn(query, progress, requester);
    if (query.kind !== 'text') return { query, results: [], confident: null, incomplete: false };
    // Retrieval ranks what it found to fetch the leading works' families; the scores are kept.
    const scoreOf = queryScores(query);
    const { candidates: local, readAs } = await this.localCandidates(query, scoreOf, asTyped);
    let groups = rankCandidates(query, local, scoreOf);
    // A local correction names its reading; a provider reading that explains the answer better replaces it.
    const reading: { readAs: string | null } = { readAs };
    if (
      this.providers &&
      this.remote?.searches !== false &&
      !(confident(query, groups) && (groups[0]?.relevance ?? 0) >= LOCAL_ENOUGH)
    ) {
      groups = await this.providers.withProviders(query, local, groups, started, progress, requester, {
        asTyped,
        reading,
      });
    }
    groups = volumeFirst(query, groups);
    const results = groups.slice(0, limit).map((group) => ({ ...group.best, relevance: group.relevance }));
    const sure = confident(query, groups) ? (results[0] ?? null) : null;
    return {
      query,
      results,
      confident: sure,
      incomplete: progress.limited === true,
      readAs: results.length > 0 ? reading.readAs : null,
    };
  }

  private async byIsbn(
    query: Extract<ParsedQuery, { kind: 'isbn' }>,
    progress: Completeness,
    requester: Requester,
  ): Promise<SearchOutcome> {
    const book = await findBookByIsbn13(this.store.db, query.isbn.isbn13);
    const local = book ? bookToRecord(book) : await this.local.lookupIsbn(query.isbn);
    // The providers' answer (or silence) is theirs to give again: it is never cached here.
    if (!local && this.options.isbnLookup) progress.complete = false;
    const remote = local ? null : await this.remoteIsbn(query, requester);
    const incomplete = remote?.limited ?? false;
    const record = local ?? remote?.record ?? null;
    if (!record) return { query, results: [], confident: null, incomplete };
    const found = { ...candidate(record, book, 0, `isbn:${query.isbn.isbn13}`), relevance: 1 };
    return { query, results: [found], confident: found, incomplete };
  }

  /** The local candidates, and the reading retrieval respelt the query as when the words as typed found nothing. */
  private localCandidates(
    query: TextQuery,
    scoreOf: (candidate: Candidate) => number,
    asTyped: boolean,
  ): Promise<{ candidates: Candidate[]; readAs: string | null }> {
    return readTogether(this.store, async (store) => {
      const [retrieved, pins] = await Promise.all([
        retrieveCandidates(store, query.tokens, 40, asTyped),
        this.pinned.books(store, query.key),
      ]);
      const pinned = pins.map((row) => ({ ...fromBookRow(row), pinned: true }));
      const found = [...pinned, ...retrieved.books.map(fromBookRow), ...retrieved.entries.map(fromEntryRow)];
      // Retrieval may return a work's large print but not its paperback: fetch the leading works' families.
      const leading = rankCandidates(query, found, scoreOf).slice(0, 8);
      const keys = new Set(leading.flatMap((g) => g.editions.map((e) => matchKey(e.title, e.authors) ?? '')));
      keys.delete('');
      const knownBooks = new Set([...pins, ...retrieved.books].map((row) => Number(row.id)));
      const family = await familiesWithClicks(store, [...keys], [...knownBooks]);
      // The family holds the editions found already: those rows are not made into candidates twice.
      const knownEntries = new Set(retrieved.entries.map((row) => Number(row.id)));
      const all = dedupe([
        ...found,
        ...family.books.filter((row) => !knownBooks.has(Number(row.id))).map(fromBookRow),
        ...family.entries.filter((row) => !knownEntries.has(Number(row.id))).map(fromEntryRow),
      ]);
      for (const c of all) if (c.book) c.clicks = family.clicks.get(c.book.id) ?? 0;
      const readAs = retrieved.respelt ? respeltText(query.raw, retrieved.respelt) : null;
      return { candidates: apartVolumes(all), readAs: readAs && readAs !== query.raw ? readAs : null };
    });
  }

  /** The provider chain's record for an ISBN (null when none answers), and whether one could not be asked. */
  private async remoteIsbn(
    query: Extract<ParsedQuery, { kind: 'isbn' }>,
    requester: Requester,
  ): Promise<{ record: BookRecord | null; limited: boolean } | null> {
    const lookup = this.options.isbnLookup;
    if (!lookup) return null;
    const { record, limited } = await isbnAnswer(lookup, query.isbn, requester).catch(() => ({
      record: null,
      limited: false,
    }));
    if (!record?.title) return { record: null, limited };
    return { record: { ...record, isbn13: query.isbn.isbn13, isbn10: query.isbn.isbn10 }, limited };
  }

  /** Logs a search now; the id is the `sfid` its result links carry (the search page's). */
  log(outcome: SearchOutcome, channel: 'page' | 'api', source: string | null): Promise<number> {
    return logSearch(this.store.db, searchLogRow(outcome, channel, source));
  }

  /**
   * Logs a search off the request path (the API's answer carries no search id): buffered and written
   * in batches by the search log recorder, or at once without one.
   */
  record(outcome: SearchOutcome, channel: 'page' | 'api', source: string | null): Promise<void> {
    const row = searchLogRow(outcome, channel, source);
    const recorder = this.options.log;
    if (!recorder) return logSearch(this.store.db, row).then(() => undefined);
    recorder.record(row);
    return DONE;
  }

  /** The saved book for a candidate, creating it when `mayCreate` (never for automated clients). */
  async bookFor(result: Candidate, mayCreate: MayCreate): Promise<Book | null> {
    if (result.book) return result.book;
    const existing = result.record.isbn13
      ? await findBookByIsbn13(this.store.db, result.record.isbn13)
      : // An edition without an ISBN that is already a book (a provider's answer filed in the catalog).
        await findBookByAnyIdentifier(this.store.db, editionIdentifiers(result.record.identifiers));
    if (existing) return existing;
    return this.creator.createIfAllowed(result.record, mayCreate);
  }
}
