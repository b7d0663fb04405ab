import type { Redis } from 'ioredis';
import { catalogEntryToRecord, type LocalCatalogProvider } from '../catalog/local.js';
import { onBehalfOf, type Requester } from '../catalog/requester.js';
import type { BookRecord, SearchQuery } from '../catalog/types.js';
import { editionIdentifiers } from '../domain/identifiers.js';
import { type ParsedQuery, parseQuery, type TextQuery } from '../domain/query.js';
import {
  isConfident,
  namingSubtitle,
  queryScores,
  type RankedGroup,
  type RankInput,
  rankCandidates,
  workGroupKey,
} from '../domain/ranking.js';
import { matchKey } from '../domain/text.js';
import { titleParts } from '../domain/title-parts.js';
import { type Book, bookRowToBook, findBookByAnyIdentifier, findBookByIsbn13 } from '../store/books.js';
import { readTogether, type Store } from '../store/db.js';
import type { BookRow, CatalogEntryRow } from '../store/schema.js';
import {
  clickCounts,
  editionsByMatchKeys,
  forgetListedWords,
  logSearch,
  type NewSearch,
  pinnedBooks,
  retrieveCandidates,
} from '../store/search.js';
import { type BookCreator, type IsbnLookup, isbnAnswer } from './book-creator.js';
import { type AnswerCache, MemoryAnswerCache, RedisAnswerCache } from './search/cache.js';
import type { SearchLogRecorder } from './search/log.js';
import { planProviderSearch, requestKey } from './search/plans.js';
import { nameProviderSeries } from './search/provider-series.js';
import type { ResultCacheStats, SearchResultCache } from './search/results.js';
import type { SearchVocabulary } from './search/vocabulary.js';
import type { MayCreate } from './write-limits.js';

/** A text search over remote providers (the provider chain's `search`). */
export interface TextSearchSource {
  /** False when no source behind it searches (the chain with PROVIDERS=local): nothing to plan or ask. */
  readonly searches?: boolean;
  search(query: SearchQuery, signal?: AbortSignal): Promise<BookRecord[]>;
  /** The same, telling whether every provider answered (only complete answers are cached). */
  searchAnswers?(
    query: SearchQuery,
    signal?: AbortSignal,
  ): Promise<{ records: BookRecord[]; complete: boolean; limited?: boolean }>;
}

/** One edition that could answer the query: a saved book, a catalog entry or a provider record. */
export interface Candidate extends RankInput {
  record: BookRecord;
  book: Book | null;
  relevance: number;
  /** The work key by title and author alone, before `apartVolumes` tells volumes from their work. */
  titleKey: string;
  /** Its series note names the series by the words asked, unconfirmed (see `nameProviderSeries`). */
  seriesInferred?: boolean;
}

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
}

/**
 * Whether an answer is the one any search of the same text would give now: false when a provider
 * did not answer in time or at all, or the time budget cut the questions short. Only complete
 * answers are cached.
 */
interface Completeness {
  complete: boolean;
  /** Some provider question went unasked for a limit (budget, quota, circuit): see `incomplete`. */
  limited?: boolean;
}

/** Provider answers cached in this process, and in Redis too when the install has one. */
export function searchAnswerCache(redis: Redis | null): AnswerCache {
  const memory = new MemoryAnswerCache(PROVIDER_CACHE_TTL_MS);
  return redis ? new RedisAnswerCache(redis, memory, PROVIDER_CACHE_TTL_MS) : memory;
}

/**
 * A confident local result this relevant names a title exactly and is not improved by asking the
 * providers; a series volume (0.85) or a title's first words (up to 0.92) may be a book the
 * catalog lacks, and an unsure one may be told apart by what the providers know.
 */
const LOCAL_ENOUGH = 0.95;
/** Provider answers this relevant end the search; below it the relaxed questions are asked too. */
const STRICT_ENOUGH = 0.8;
/** How much better another reading must explain its best result than the words as typed. */
const READING_MARGIN = 0.02;
/** A provider record's popularity: a work in print in many editions is a known one. */
const POPULARITY_PER_EDITION = 1000;
/** Editions assumed for a published book whose provider does not count them (Google, iTunes). */
const UNCOUNTED_EDITIONS = 10;
export const PROVIDER_CACHE_TTL_MS = 10 * 60 * 1000;

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
  const groupKey = workGroupKey(record.title, record.authors) ?? fallbackKey;
  return {
    record,
    book,
    title: record.title,
    authors: record.authors,
    format: book?.format ?? record.format,
    language: record.language,
    groupKey,
    titleKey: groupKey,
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

/**
 * Sure enough to go straight to the top result (the ranking's rule), and when the query asks for
 * a volume ("green mile part 3"), the top result is that volume by its series note or title.
 */
function confident(query: TextQuery, groups: readonly RankedGroup<Candidate>[]): boolean {
  if (!isConfident(groups)) return false;
  const wanted = query.seriesNumber;
  const top = groups[0]?.best;
  if (top?.seriesInferred && !top.pinned) return false;
  if (wanted === null || !top || top.pinned) return true;
  const parts = titleParts(top);
  if (parts.core.includes(String(wanted))) return true;
  const series = parts.series;
  if (!series || series.number !== wanted || series.range) return false;
  // The query names that series ("foundation 2" is not "Foundation: Prequel, #2").
  const named = series.name.filter((word) => !['the', 'a', 'an', 'of', 'and'].includes(word));
  return named.every((word) => query.terms.includes(word));
}

/** Whether a candidate is the volume a query asks for, by its title or its series note. */
function carriesVolume(query: TextQuery, candidate: Candidate): boolean {
  const parts = titleParts(candidate);
  const wanted = query.seriesNumber;
  return wanted !== null && (parts.core.includes(String(wanted)) || parts.series?.number === wanted);
}

/**
 * When the query asks for a volume ("green mile part 3") and the first work does not carry that
 * number, a work that does and matches the words at least as well goes first.
 */
function volumeFirst(query: TextQuery, groups: RankedGroup<Candidate>[]): RankedGroup<Candidate>[] {
  const top = groups[0];
  if (query.seriesNumber === null || !top || top.best.pinned || carriesVolume(query, top.best)) return groups;
  const index = groups.findIndex((g) => g.relevance >= top.relevance && carriesVolume(query, g.best));
  if (index <= 0) return groups;
  const volume = groups[index];
  return volume ? [volume, ...groups.filter((_, i) => i !== index)] : groups;
}

/** The series names the local candidates' notes carry, as folded words, each once. */
function uniqueSeriesNames(candidates: readonly Candidate[]): string[][] {
  const names = new Map<string, string[]>();
  for (const c of candidates) {
    const name = c.series ? titleParts(c).series?.name : undefined;
    if (name && name.length > 0) names.set(name.join(' '), name);
  }
  return [...names.values()];
}

/**
 * A provider's answer. One without any ISBN, or a work its provider counts no edition of (an Open
 * Library stub, `edition_count: 0`), is a stub: never ahead of a real edition. The catalog's own
 * entries without an ISBN (public-domain texts, rows an operator imported) are books, not stubs.
 */
function remoteCandidate(record: BookRecord, index: string): Candidate {
  const popularity = (record.editionCount ?? UNCOUNTED_EDITIONS) * POPULARITY_PER_EDITION;
  const key = record.isbn13 ?? record.workKey ?? `${index}`;
  const stub = (!record.isbn13 && !record.isbn10) || record.editionCount === 0;
  return { ...candidate(record, null, popularity, `remote:${key}`), stub };
}

/**
 * One provider answer's candidates, in order; volumes placed only by their provider's own series
 * (Google's `seriesInfo`) get a series note named by `nameProviderSeries`.
 */
function providerCandidates(request: SearchQuery, records: readonly BookRecord[], at: number): Candidate[] {
  const notes = nameProviderSeries(request, records);
  return records
    .filter((record) => record.title)
    .map((record, i) => {
      const c = remoteCandidate(record, `${at}.${i}`);
      const note = notes.get(record);
      return note ? { ...c, series: note.series, seriesInferred: note.inferred } : c;
    });
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
 * Volumes told apart from their whole work: editions that share a title and author ("The Lord of
 * the Rings") but that the catalog files under different works, one with a naming subtitle ("The
 * Return of the King"), are different books. Each subtitle then keys a work of its own and is read
 * as part of the title, so "the lord of the rings" names the whole work better than the volume. A
 * subtitle within one work ("Outliers: The Story of Success") changes nothing.
 */
export function apartVolumes(candidates: readonly Candidate[]): Candidate[] {
  const works = new Map<string, Set<string>>();
  for (const c of candidates) {
    if (!c.record.workKey) continue;
    const keys = works.get(c.titleKey) ?? new Set<string>();
    keys.add(c.record.workKey);
    works.set(c.titleKey, keys);
  }
  return candidates.map((c) => {
    const subtitle = (works.get(c.titleKey)?.size ?? 0) > 1 ? namingSubtitle(c.record.subtitle) : null;
    if (!subtitle)
      return c.groupKey === c.titleKey ? c : { ...c, groupKey: c.titleKey, title: c.record.title };
    return { ...c, groupKey: `${c.titleKey}|${subtitle}`, title: `${c.record.title}: ${c.record.subtitle}` };
  });
}

const DONE = Promise.resolve();

/** The outcome, its list and its results made read-only: a cached answer is shared by every caller. */
function frozen(outcome: SearchOutcome): SearchOutcome {
  for (const result of outcome.results) Object.freeze(result);
  Object.freeze(outcome.results);
  return Object.freeze(outcome);
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
    this.cache = options.cache ?? new MemoryAnswerCache(PROVIDER_CACHE_TTL_MS);
  }

  private readonly cache: AnswerCache;

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
    if (!cache) return this.searchNow(text, limit, { complete: true }, requester, asTyped);
    // Everything a search depends on is read from the text as parseQuery keeps it (trimmed, bounded).
    const key = `${asTyped ? 'typed ' : ''}${limit} ${text.trim().slice(0, 500)}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const mark = cache.mark();
    const progress: Completeness = { complete: true };
    const outcome = await this.searchNow(text, limit, progress, requester, asTyped);
    if (progress.complete && outcome.query.kind !== 'empty' && outcome.query.kind !== 'url') {
      cache.set(key, frozen(outcome), mark);
    }
    return outcome;
  }

  /** Drops every cached answer (a book or the catalog changed). */
  invalidate(): void {
    this.options.results?.clear();
  }

  /** Drops every cached answer and the catalog's words kept for corrections (the catalog changed). */
  catalogChanged(): void {
    this.invalidate();
    forgetListedWords(this.store);
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
    const local = await this.localCandidates(query, scoreOf);
    let groups = rankCandidates(query, local, scoreOf);
    const reading: { readAs: string | null } = { readAs: null };
    if (
      this.remote &&
      this.remote.searches !== false &&
      !(confident(query, groups) && (groups[0]?.relevance ?? 0) >= LOCAL_ENOUGH)
    ) {
      groups = await this.withProviders(query, local, groups, started, progress, requester, {
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

  /**
   * Asks the providers within the time budget: the strict questions at once, then (time left and
   * nothing good yet) the relaxed ones. Every answer is ranked with the local candidates by the
   * same ranking, under the reading (as typed or as corrected) that explains the best result.
   */
  private async withProviders(
    query: TextQuery,
    local: Candidate[],
    localGroups: RankedGroup<Candidate>[],
    started: number,
    progress: Completeness,
    requester: Requester,
    how: { asTyped: boolean; reading: { readAs: string | null } },
  ): Promise<RankedGroup<Candidate>[]> {
    // The budget covers the whole search, the local part included.
    const deadline = started + (this.options.remoteTimeoutMs ?? 1500);
    if (deadline - Date.now() < 50) {
      progress.complete = false;
      return localGroups;
    }
    const vocabulary =
      this.options.vocabulary && !how.asTyped ? await this.options.vocabulary.vocabulary() : null;
    const plan = planProviderSearch(query, vocabulary, uniqueSeriesNames(local));
    const found: Candidate[] = [];
    // `told`: a reading the page names ("Showing results for …"): respelt or with words dropped.
    const readings: Array<{ reading: TextQuery; weight: number; told: boolean }> = [
      ...plan.readings.map((reading, i) => ({ reading, weight: 1, told: i > 0 })),
      // The title without the series name explains the query but not from what the book says.
      ...plan.titles.map((reading) => ({ reading, weight: 0.88, told: false })),
    ];
    // The reading that explains the best result wins; another must explain it clearly better.
    const rank = () => {
      const all = apartVolumes(dedupe([...local, ...found]));
      const ranked = readings.map(({ reading, weight, told }) => ({
        weight,
        told: told ? reading.raw : null,
        groups: rankCandidates(reading, all),
      }));
      const top = (r: (typeof ranked)[number]) => (r.groups[0]?.relevance ?? 0) * r.weight;
      const best = ranked.reduce((a, b) => (top(b) > top(a) + READING_MARGIN ? b : a));
      how.reading.readAs = best.told;
      return best.weight === 1
        ? best.groups
        : best.groups.map((group) => ({ ...group, relevance: group.relevance * best.weight }));
    };
    found.push(...(await this.ask(plan.strict, deadline, progress, requester)));
    let groups = found.length > 0 ? rank() : localGroups;
    if ((groups[0]?.relevance ?? 0) < STRICT_ENOUGH && plan.relaxed.length > 0 && !how.asTyped) {
      if (deadline - Date.now() <= 50) {
        progress.complete = false;
        return groups;
      }
      const answers = await Promise.all(
        plan.relaxed.map((request) => this.ask([request], deadline, progress, requester)),
      );
      plan.relaxed.forEach((request, i) => {
        const more = answers[i] ?? [];
        const volume = query.seriesNumber === null ? '' : ` ${query.seriesNumber}`;
        const reading = parseQuery(`${request.text}${volume}`);
        if (more.length === 0 || reading.kind !== 'text') return;
        found.push(...more);
        // A reading of fewer words than typed ranks below any full reading: never confident.
        const kept = reading.terms.length / Math.max(1, query.terms.length);
        readings.push({ reading, weight: Math.min(0.88, 0.7 + 0.2 * kept), told: true });
      });
      if (found.length > 0) groups = rank();
    }
    return groups;
  }

  /** Asks the providers several questions at once (cached answers are not asked again). */
  private async ask(
    requests: readonly SearchQuery[],
    deadline: number,
    progress: Completeness,
    requester: Requester,
  ): Promise<Candidate[]> {
    const remote = this.remote;
    if (!remote) return [];
    const signal = onBehalfOf(requester, AbortSignal.timeout(Math.max(1, deadline - Date.now())));
    const answers = Promise.all(
      requests.map(async (request, at): Promise<Candidate[]> => {
        const key = requestKey(request);
        const cached = await this.cache.get(key);
        if (cached) return providerCandidates(request, cached, at);
        const answer: { records: BookRecord[]; complete: boolean; limited?: boolean } = remote.searchAnswers
          ? await remote.searchAnswers(request, signal).catch(() => ({ records: [], complete: false }))
          : await remote.search(request, signal).then(
              (records) => ({ records, complete: records.length > 0 }),
              () => ({ records: [], complete: false }),
            );
        if (answer.limited) progress.limited = true;
        if (answer.complete && !signal.aborted) await this.cache.set(key, answer.records);
        else progress.complete = false;
        return providerCandidates(request, answer.records, at);
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<Candidate[][]>((resolve) => {
      timer = setTimeout(
        () => {
          progress.complete = false;
          resolve([]);
        },
        Math.max(1, deadline - Date.now()) + 50,
      ).unref();
    });
    const found = (await Promise.race([answers, timeout]).finally(() => clearTimeout(timer))).flat();
    this.options.vocabulary?.learn(found.map((c) => c.record));
    return found;
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

  private localCandidates(query: TextQuery, scoreOf: (candidate: Candidate) => number): Promise<Candidate[]> {
    return readTogether(this.store, async (store) => {
      const [retrieved, pins] = await Promise.all([
        retrieveCandidates(store, query.tokens),
        pinnedBooks(store.db, query.key),
      ]);
      const pinned = pins.map((row) => ({ ...fromBookRow(row), pinned: true }));
      const found = [...pinned, ...retrieved.books.map(fromBookRow), ...retrieved.entries.map(fromEntryRow)];
      // Retrieval may return a work's large print but not its paperback: fetch the leading works' families.
      const leading = rankCandidates(query, found, scoreOf).slice(0, 8);
      const keys = new Set(leading.flatMap((g) => g.editions.map((e) => matchKey(e.title, e.authors) ?? '')));
      keys.delete('');
      const family = await editionsByMatchKeys(store.db, [...keys]);
      // The family holds the editions found already: those rows are not made into candidates twice.
      const knownBooks = new Set([...pins, ...retrieved.books].map((row) => Number(row.id)));
      const knownEntries = new Set(retrieved.entries.map((row) => Number(row.id)));
      const all = dedupe([
        ...found,
        ...family.books.filter((row) => !knownBooks.has(Number(row.id))).map(fromBookRow),
        ...family.entries.filter((row) => !knownEntries.has(Number(row.id))).map(fromEntryRow),
      ]);
      const ids = all.flatMap((c) => (c.book ? [c.book.id] : []));
      const clicks = await clickCounts(store.db, ids);
      for (const c of all) if (c.book) c.clicks = clicks.get(c.book.id) ?? 0;
      return apartVolumes(all);
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
