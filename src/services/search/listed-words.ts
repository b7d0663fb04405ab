import { getOrAdd } from '../../domain/memo.js';
import type { Store } from '../../store/db.js';
import type { Db } from '../../store/schema.js';
import { readHasTrigrams } from '../../store/search/postgres.js';
import {
  type CatalogShape,
  estimatedMatches,
  listedPrefix,
  type PrefixListing,
  readCatalogShape,
  SPELLED_PREFIX,
} from '../../store/search/postgres-plans.js';
import type { Alternatives, MatchMode } from '../../store/search/query-text.js';
import {
  anyWordListed,
  listedCounts,
  listedPrefixWords,
  listedRange,
  type TermRow,
  wordListRefreshes,
} from '../../store/search/vocabulary.js';
import { SearchResultCache } from './results.js';

/**
 * What this process remembers of the catalog's word list and of PostgreSQL's statistics between
 * searches, per connection: whether any word is listed, each prefix's words, each word's count and
 * each prefix's listing (PostgreSQL's plans), the catalog's shape and whether pg_trgm is there. The
 * queries are store/search's; only the memory is here. A refresh of the word list in this process (an
 * import's end) drops it all; another process's is seen within LISTING_KNOWN_MS.
 */

/** What names a connection for what is remembered of it: a SQLite read transaction's `db` is new each search. */
export const connectionOf = (store: Store): object => store.sqlite ?? store.db;

/** A listed word with its length in characters, as SQL's `length` counts them. */
interface ListedWord extends TermRow {
  length: number;
}

/** A prefix starting more words than this is read by length each time (a large catalog's common prefixes). */
const PREFIX_WORDS_KEPT = 5_000;
/** Words kept per connection, over every prefix; the least recently read prefixes go first. */
const LISTED_WORDS_KEPT = 100_000;
/** How long a connection trusts what it read: a server learns of another process's import within it. */
const LISTING_KNOWN_MS = 60_000;

/**
 * The listed words (`catalog_terms`) each prefix starts, kept per connection. Corrections read the
 * same few hundred prefixes for every misspelt word, each a range of hundreds of words, where one
 * search asks for up to a dozen. The list changes only when an import ends: `refreshSearchStatistics`
 * drops what this process kept, and another process's import is seen within LISTING_KNOWN_MS, as
 * `wordListed` sees it. Words come in the order SQL gives them, each prefix's read whole, then
 * filtered by length here.
 */
class ListedPrefixes {
  private readonly kept = new Map<string, { words: ListedWord[] | null; at: number }>();
  private count = 0;

  async range(db: Db, lower: string, upper: string, lengths: readonly [number, number]): Promise<TermRow[]> {
    const key = `${lower}\u0000${upper}`;
    let known = this.kept.get(key);
    if (known && Date.now() - known.at >= LISTING_KNOWN_MS) {
      this.forget(key);
      known = undefined;
    }
    if (!known) {
      known = { words: await this.read(db, lower, upper), at: Date.now() };
      this.remember(key, known);
    } else {
      // Re-inserted so the Map's order is least recently read first.
      this.kept.delete(key);
      this.kept.set(key, known);
    }
    if (!known.words) return listedRange(db, lower, upper, lengths);
    const [shortest, longest] = lengths;
    return known.words.filter((word) => word.length >= shortest && word.length <= longest);
  }

  /** A prefix's every listed word, or null when it starts more than PREFIX_WORDS_KEPT. */
  private async read(db: Db, lower: string, upper: string): Promise<ListedWord[] | null> {
    const rows = await listedPrefixWords(db, lower, upper, PREFIX_WORDS_KEPT);
    if (rows.length > PREFIX_WORDS_KEPT) return null;
    return rows.map(({ term, doc }) => ({ term, doc, length: characters(term) }));
  }

  private remember(key: string, known: { words: ListedWord[] | null; at: number }): void {
    // Two searches may have read the same prefix at once: the words are counted once.
    this.forget(key);
    this.kept.set(key, known);
    this.count += known.words?.length ?? 0;
    for (const oldest of this.kept.keys()) {
      if (this.count <= LISTED_WORDS_KEPT) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    this.count -= this.kept.get(key)?.words?.length ?? 0;
    this.kept.delete(key);
  }
}

/** Characters (code points) in a word, as SQLite's and PostgreSQL's `length` count them. */
function characters(word: string): number {
  let count = 0;
  for (let i = 0; i < word.length; i++) {
    const unit = word.charCodeAt(i);
    // A high surrogate and the low one after it are one character.
    if (unit < 0xd800 || unit > 0xdbff) count++;
  }
  return count;
}

/** Words and prefixes whose counts a handle keeps; the least recently read go first. */
const COUNTS_KEPT = 20_000;

/**
 * Each word's count and each prefix's listing in `catalog_terms`, kept per database handle, for
 * PostgreSQL's plan choice and prefix spelling: they were two statements of every search, a round trip
 * to the backend each, where a catalog's words repeat from one search to the next. Kept for
 * LISTING_KNOWN_MS, like the prefixes' words, and dropped with them at this process's refresh of the
 * list. A prefix the plan and the spelling ask for at once is read once.
 */
class ListedCounts {
  private readonly words = new SearchResultCache<number>(LISTING_KNOWN_MS, COUNTS_KEPT);
  private readonly prefixes = new SearchResultCache<PrefixListing>(LISTING_KNOWN_MS, COUNTS_KEPT);
  /** Prefixes being read now, so that a second asker waits for the same statement. */
  private readonly reading = new Map<string, Promise<PrefixListing>>();

  /** How many entries hold each of `words` (0: not listed), the ones not kept read in one statement. */
  counts(db: Db, words: readonly string[]): Promise<Map<string, number>> {
    return countsKeptIn(this.words, words, async (missing) => {
      const rows = await listedCounts(db, missing);
      return new Map(rows.map(({ term, doc }) => [term, Number(doc)]));
    });
  }

  prefix(db: Db, prefix: string): Promise<PrefixListing> {
    const known = this.prefixes.get(prefix);
    if (known) return Promise.resolve(known);
    return getOrAdd(this.reading, prefix, () => {
      const mark = this.prefixes.mark();
      return listedPrefix(db, prefix)
        .then((listing) => {
          this.prefixes.set(prefix, listing, mark);
          return listing;
        })
        .finally(() => this.reading.delete(prefix));
    });
  }
}

let countsKept = new WeakMap<object, ListedCounts>();

function countsOf(db: Db): ListedCounts {
  current();
  let kept = countsKept.get(db);
  if (!kept) {
    kept = new ListedCounts();
    countsKept.set(db, kept);
  }
  return kept;
}

/** How many catalog entries hold each of `words` by the word list (0: none), remembered per handle. */
export function listedWordCounts(db: Db, words: readonly string[]): Promise<Map<string, number>> {
  return countsOf(db).counts(db, words);
}

/**
 * How many catalog entries a query matches by the word list's counts (postgres-plans.ts,
 * `estimatedMatches`), the last group's first word read as a prefix when `prefixLast` and it has three
 * letters or more.
 */
export async function listedMatches(
  db: Db,
  groups: readonly Alternatives[],
  mode: MatchMode,
  prefixLast: boolean,
): Promise<number> {
  const kept = countsOf(db);
  const word = prefixLast ? (groups.at(-1)?.[0] ?? '') : '';
  const ranged = word.length >= 3;
  const exact = groups.flatMap((alternatives, i) =>
    ranged && i === groups.length - 1 ? alternatives.slice(1) : alternatives,
  );
  const [counts, listing] = await Promise.all([
    kept.counts(db, exact),
    ranged ? kept.prefix(db, word) : null,
  ]);
  return estimatedMatches(groups, mode, counts, listing ? { word, listing } : null);
}

/**
 * The counts of `words` that `kept` holds, the ones it lacks read by `read` in one go: every word asked
 * has one (0 where `read` found none), and what was read is kept unless `kept` was cleared meanwhile.
 */
async function countsKeptIn(
  kept: SearchResultCache<number>,
  words: readonly string[],
  read: (missing: readonly string[]) => Promise<ReadonlyMap<string, number>>,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const missing: string[] = [];
  for (const word of new Set(words)) {
    const known = kept.get(word);
    if (known === undefined) missing.push(word);
    else counts.set(word, known);
  }
  if (missing.length === 0) return counts;
  const mark = kept.mark();
  const found = await read(missing);
  for (const word of missing) {
    const count = found.get(word) ?? 0;
    counts.set(word, count);
    kept.set(word, count, mark);
  }
  return counts;
}

let prefixesKept = new WeakMap<object, ListedPrefixes>();
let wordCountsKept = new WeakMap<object, SearchResultCache<number>>();
let listings = new WeakMap<object, { listed: boolean; at: number }>();
const shapes = new WeakMap<object, CatalogShape & { at: number }>();
const trigrams = new WeakMap<object, Promise<boolean>>();
/** The word-list refreshes of this process that what is remembered has seen. */
let refreshesSeen = 0;

/** Drops everything remembered when this process refreshed the word list since. */
function current(): void {
  const refreshes = wordListRefreshes();
  if (refreshes === refreshesSeen) return;
  refreshesSeen = refreshes;
  prefixesKept = new WeakMap();
  listings = new WeakMap();
  countsKept = new WeakMap();
  wordCountsKept = new WeakMap();
}

/**
 * How many catalog entries and saved books hold each of `words` (0: none), for spelling corrections
 * (`Terms.counts`, corrections.ts), remembered per connection; `read` counts the words not kept.
 * Counted afresh on every search that corrected its words, the saved books' words were read from their
 * full-text index's vocabulary on SQLite (FTS5's `fts5vocab`, some 60 µs a read with 200 books saved or
 * 2,000): about a sixth of an uncached search's CPU (bench/runs/2026-12-03-run-32.md); PostgreSQL
 * counted each word the word list lacks in both tables. Every change `SearchService.invalidate` hears
 * of (a book saved or edited, here or, through the change relay, on another instance) drops them
 * (`forgetWordCounts`), as the word list's refresh does; what nothing announces is at most
 * LISTING_KNOWN_MS old.
 */
export function rememberedWordCounts(
  connection: object,
  words: readonly string[],
  read: (missing: readonly string[]) => Promise<ReadonlyMap<string, number>>,
): Promise<Map<string, number>> {
  current();
  const kept = getOrAdd(
    wordCountsKept,
    connection,
    () => new SearchResultCache<number>(LISTING_KNOWN_MS, COUNTS_KEPT),
  );
  return countsKeptIn(kept, words, read);
}

/** Drops the words' counts remembered for `store`'s connection: a saved book was created or changed. */
export function forgetWordCounts(store: Store): void {
  wordCountsKept.get(connectionOf(store))?.clear();
}

/** The listed words of a prefix range, remembered per connection (see ListedPrefixes). */
export function listedWords(
  connection: object,
  db: Db,
  lower: string,
  upper: string,
  lengths: readonly [number, number],
): Promise<TermRow[]> {
  current();
  let prefixes = prefixesKept.get(connection);
  if (!prefixes) {
    prefixes = new ListedPrefixes();
    prefixesKept.set(connection, prefixes);
  }
  return prefixes.range(db, lower, upper, lengths);
}

/**
 * Whether an import has listed the catalog's words (`catalog_terms` holds any); read once a minute per
 * connection. `connection` names it where `db` is not the same object from one search to the next (a
 * SQLite read transaction's handle is new each time).
 */
export async function wordListed(db: Db, connection: object = db): Promise<boolean> {
  current();
  const known = listings.get(connection);
  if (known && Date.now() - known.at < LISTING_KNOWN_MS) return known.listed;
  const listed = await anyWordListed(db);
  listings.set(connection, { listed, at: Date.now() });
  return listed;
}

/**
 * Drops what this process remembers of the listed words (whether there are any, each prefix's): the
 * next search reads them again. For a change another process announced (an import that ended).
 */
export function forgetListedWords(store: Store): void {
  listings.delete(connectionOf(store));
  prefixesKept.delete(connectionOf(store));
  countsKept.delete(store.db);
  forgetWordCounts(store);
}

/** The catalog's row count and rated share as PostgreSQL's statistics have them (read once a minute per handle). */
export async function catalogShape(db: Db): Promise<CatalogShape> {
  const known = shapes.get(db);
  if (known && Date.now() - known.at < 60_000) return known;
  const shape = { ...(await readCatalogShape(db)), at: Date.now() };
  shapes.set(db, shape);
  return shape;
}

/** Whether pg_trgm was installed; asked once per database handle. */
export function hasTrigrams(db: Db): Promise<boolean> {
  let known = trigrams.get(db);
  if (!known) {
    known = readHasTrigrams(db);
    trigrams.set(db, known);
  }
  return known;
}

/**
 * The last group with its prefix spelled out as the listed words it starts ("secret" → secret,
 * secrets, secretary), or null to keep the prefix. The GIN index reads a prefix by collecting every
 * entry of every word it starts before intersecting ("husbands & secret:*": 48 ms at 10M, against 2 ms
 * for the words), where it skips through a common word's entries using the rare word's. Words filed
 * since the last import are not listed: a prefix reaches them only once the next import lists them.
 */
export async function spelledPrefix(db: Db, alternatives: Alternatives): Promise<Alternatives | null> {
  const [prefix = '', ...rest] = alternatives;
  if (prefix.length < 3 || !(await wordListed(db))) return null;
  const words = (await countsOf(db).prefix(db, prefix)).first;
  if (words.length === 0 || words.length > SPELLED_PREFIX) return null;
  return [...new Set([prefix, ...words, ...rest])];
}
