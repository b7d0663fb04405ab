import { sql } from 'kysely';
import type { Db } from '../schema.js';
import { type Alternatives, type MatchMode, prefixEnd } from './query-text.js';

/**
 * PostgreSQL cannot read a GIN index in popularity order, and its estimates for prefix words are
 * blind, so the plan is chosen here from the word list's counts, by cost (µs, measured at 1M and 10M
 * entries on this project's bench machine, bench/README):
 * - fetch: every match from the GIN index (GIN_US an entry of its posting lists, then FETCH_US a match:
 *   a heap page), of which text rank orders the most popular RANKED_POOL;
 * - walk: down the popularity index (WALK_US a row), which finds a word held by `n` of `total` entries
 *   every `total / n` rows, until WALKED_POOL matches;
 * - bounded: every rated match from the rated entries' own index (migration 0018), and BOUNDED_POOL of
 *   the others, the first the GIN index gives, instead of them all: in a catalog of millions most
 *   entries are unrated (an Open Library dump carries no popularity), and their order is the id's,
 *   which means nothing to a reader either;
 * - scan: the rated matches as in `bounded`, and the first BOUNDED_POOL others of a sequential scan
 *   (SCAN_US a row), which stops there: no posting list is read whole.
 * Walks and scans are for one word (or one group of alternatives): the GIN index intersects several
 * words first, where a walk or a scan would look for a rare combination row by row.
 */
const FETCH_US = 20;
const GIN_US = 0.12;
const WALK_US = 9;
const SCAN_US = 0.6;
/** The popularity walk reads this many matches for text rank: its cost grows with pool ÷ frequency. */
export const WALKED_POOL = 200;
/** Unrated matches a bounded plan or a scan reads for text rank. */
export const BOUNDED_POOL = 200;

export type Plan = 'fetch' | 'walk' | 'bounded' | 'scan';

/**
 * The cheapest plan for `matches` entries (exact for one group; at most that for an AND of groups,
 * which matches fewer than its rarest).
 */
export function cheapestPlan(
  matches: number,
  groups: number,
  catalog: { rows: number; ratedShare: number },
): Plan {
  const rated = matches * catalog.ratedShare;
  const rowsPerMatch = catalog.rows / Math.max(matches, 1);
  const costs: Array<[Plan, number]> = [
    ['fetch', matches * (GIN_US + FETCH_US)],
    ['bounded', matches * GIN_US + (rated + BOUNDED_POOL) * FETCH_US],
  ];
  if (groups === 1) {
    costs.push(['walk', WALKED_POOL * rowsPerMatch * WALK_US]);
    costs.push(['scan', rated * FETCH_US + BOUNDED_POOL * rowsPerMatch * SCAN_US]);
  }
  return costs.reduce((best, next) => (next[1] < best[1] ? next : best))[0];
}

/** The catalog's size and rated share, as the plan chooser weighs them. */
export interface CatalogShape {
  rows: number;
  /** The share of entries with a popularity (the rest are 0), as ANALYZE sampled it. */
  ratedShare: number;
}

/** The catalog's row count and rated share as PostgreSQL's statistics have them. */
export async function readCatalogShape(db: Db): Promise<CatalogShape> {
  const result = await sql<{ rows: number; unrated: number | null }>`select
      (select reltuples from pg_class where oid = 'catalog_entries'::regclass) as rows,
      (select most_common_freqs[array_position(most_common_vals::text::int[], 0)] from pg_stats
        where schemaname = current_schema() and tablename = 'catalog_entries' and attname = 'popularity') as unrated`.execute(
    db,
  );
  const row = result.rows[0];
  return {
    rows: Math.max(0, Number(row?.rows ?? 0)),
    // No statistics yet: every entry counts as rated, which never makes the bounded plan look cheaper.
    ratedShare: row?.unrated == null ? 1 : 1 - Number(row.unrated),
  };
}

/** A typed prefix is spelled out as the listed words it starts when they are at most this many. */
export const SPELLED_PREFIX = 16;

/** What the plans read of the words a prefix starts: how many entries hold them, and the first few. */
export interface PrefixListing {
  /** The entries holding each word the prefix starts, summed (an entry holding two counts twice). */
  documents: number;
  /** The first SPELLED_PREFIX + 1 of those words, in order (more: too many to spell out). */
  first: string[];
}

/** A prefix's listing (see PrefixListing), in one statement. */
export async function listedPrefix(db: Db, prefix: string): Promise<PrefixListing> {
  const upper = prefixEnd(prefix);
  const result = await sql<{ documents: number | string | null; first: string[] | null }>`select
      (select sum(doc) from catalog_terms where term >= ${prefix} and term < ${upper}) as documents,
      (select array_agg(term order by term) from (select term from catalog_terms
        where term >= ${prefix} and term < ${upper} order by term limit ${SPELLED_PREFIX + 1}) t) as first`.execute(
    db,
  );
  const row = result.rows[0];
  return { documents: Number(row?.documents ?? 0), first: row?.first ?? [] };
}

/**
 * How many entries hold each group's words by the word list's counts (`counts`: each exact word's;
 * `prefix`: the last group's first word, read as a prefix, with its listing), and from them the
 * matches of the query: at most its rarest group's (`and`), or all of them (`or`). A word listed
 * twice in a group, or both exactly and within the prefix, counts once.
 */
export function estimatedMatches(
  groups: readonly Alternatives[],
  mode: MatchMode,
  counts: ReadonlyMap<string, number>,
  prefix: { word: string; listing: PrefixListing } | null,
): number {
  const perGroup = groups.map((alternatives, i) => {
    const ranged = prefix && i === groups.length - 1 ? prefix : null;
    const upper = ranged ? prefixEnd(ranged.word) : '';
    const exact = ranged
      ? alternatives.slice(1).filter((word) => word < ranged.word || word >= upper)
      : alternatives;
    let documents = ranged?.listing.documents ?? 0;
    for (const word of new Set(exact)) documents += counts.get(word) ?? 0;
    return documents;
  });
  return mode === 'and' ? Math.min(...perGroup) : perGroup.reduce((sum, n) => sum + n, 0);
}
