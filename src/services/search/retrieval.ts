import { INDEX_STOP_WORDS as STOP } from '../../domain/stop-words.js';
import type { Store } from '../../store/db.js';
import type { Db } from '../../store/schema.js';
import { fuzzyWords, postgresFuzzy, postgresMatch } from '../../store/search/postgres.js';
import { cheapestPlan, type Plan } from '../../store/search/postgres-plans.js';
import { type Alternatives, ftsQuery, type MatchMode } from '../../store/search/query-text.js';
import { merge, type Retrieved } from '../../store/search/rows.js';
import { sqliteMatch } from '../../store/search/sqlite.js';
import { corrections, postgresTerms, sqliteTerms } from './corrections.js';
import { catalogShape, hasTrigrams, listedMatches, spelledPrefix, wordListed } from './listed-words.js';

/**
 * Retrieval: which full-text queries one search runs, in order, on either database. The SQL is in
 * store/search/ (sqlite.ts, postgres.ts); what is remembered between searches in listed-words.ts.
 */

const size = (r: Retrieved) => r.books.length + r.entries.length;

/** The plan for a PostgreSQL query, by the word list's counts (postgres-plans.ts); `fetch` before any import. */
async function postgresPlan(
  db: Db,
  groups: Alternatives[],
  mode: MatchMode,
  prefixLast: boolean,
): Promise<Plan> {
  if (!(await wordListed(db))) return 'fetch';
  const [matches, shape] = await Promise.all([listedMatches(db, groups, mode, prefixLast), catalogShape(db)]);
  return cheapestPlan(matches, mode === 'and' ? groups.length : 1, shape);
}

/** One full-text query: every group (`and`, the last word a prefix) or any (`or`). */
async function match(
  store: Store,
  groups: Alternatives[],
  mode: MatchMode,
  limit: number,
): Promise<Retrieved> {
  if (groups.length === 0) return { books: [], entries: [] };
  if (store.dialect === 'sqlite') return sqliteMatch(store, ftsQuery(groups, mode, mode === 'and'), limit);
  const prefixed = mode === 'and';
  const last = groups.at(-1) ?? [];
  const [plan, spelled] = await Promise.all([
    postgresPlan(store.db, groups, mode, prefixed),
    prefixed ? spelledPrefix(store.db, last) : null,
  ]);
  return postgresMatch(store.db, groups, mode, limit, plan, spelled);
}

/** Typo-tolerant retrieval on PostgreSQL before any import listed the words: trigrams, when installed. */
async function fuzzy(db: Db, tokens: readonly string[], limit: number): Promise<Retrieved> {
  const words = fuzzyWords(tokens);
  if (words.length === 0) return { books: [], entries: [] };
  if (!(await hasTrigrams(db))) return { books: [], entries: [] };
  return postgresFuzzy(db, words, limit);
}

/** What retrieval found, and the spelling it found it by when the words as typed matched nothing. */
export interface Retrieval extends Retrieved {
  /**
   * Set when the words as typed matched nothing and their corrections did: each typed word the index
   * lacks, with the correction retrieval read it as (null: dropped, no correction found).
   */
  respelt?: ReadonlyMap<string, string | null>;
}

/**
 * Candidates for a text query from saved books and the catalog: all words first; then spelling
 * corrections (the index's words; PostgreSQL's trigrams before any import); then any significant
 * word. `asTyped`: the words alone, neither corrected nor dropped ("Search instead for …").
 * Duplicates are left for the caller, which merges by ISBN anyway.
 */
export async function retrieveCandidates(
  store: Store,
  tokens: string[],
  limit = 40,
  asTyped = false,
): Promise<Retrieval> {
  // Small words need not be indexed as typed ("Angels & Demons" holds no "and").
  const meaningful = tokens.filter((word) => !STOP.has(word));
  const words = (meaningful.length > 0 ? meaningful : tokens).slice(0, 12);
  let found = await match(
    store,
    words.map((word) => [word]),
    'and',
    limit,
  );
  if (size(found) >= 8 || asTyped) return found;
  let respelt: Map<string, string | null> | undefined;
  const significant = words.filter((word) => !STOP.has(word) && word.length > 1);
  const terms =
    store.dialect === 'sqlite'
      ? await sqliteTerms(store)
      : (await wordListed(store.db))
        ? postgresTerms(store.db)
        : null;
  if (terms) {
    const rareToo = size(found) === 0;
    const counts = await terms.counts([...new Set(words)]);
    const corrected = await Promise.all(
      words.map((word) => corrections(terms, word, rareToo, counts.get(word) ?? 0)),
    );
    const usable = corrected.filter((alternatives) => alternatives.length > 0);
    if (
      usable.length > 0 &&
      corrected.some((alternatives, i) => alternatives.length !== 1 || alternatives[0] !== words[i])
    ) {
      const typedFound = size(found) > 0;
      found = merge(found, await match(store, usable, 'and', limit));
      if (!typedFound && size(found) > 0) {
        respelt = new Map();
        words.forEach((word, i) => {
          if ((counts.get(word) ?? 0) === 0) respelt?.set(word, corrected[i]?.[0] ?? null);
        });
      }
    }
  } else if (size(found) === 0) {
    found = merge(found, await fuzzy(store.db, words, limit));
  }
  // The widest net, and the slowest on a large catalog: only when nothing else matched.
  if (size(found) === 0 && significant.length > 1) {
    found = merge(
      found,
      await match(
        store,
        significant.map((word) => [word]),
        'or',
        limit,
      ),
    );
  }
  return respelt ? { ...found, respelt } : found;
}
