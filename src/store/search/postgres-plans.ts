import { type Kysely, sql } from 'kysely';
import type { Database } from '../schema.js';
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
export async function readCatalogShape(db: Kysely<Database>): Promise<CatalogShape> {
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

/** How many entries hold each group's words (a prefix: every word it starts), from the word list. */
export async function postgresEstimate(
  db: Kysely<Database>,
  groups: Alternatives[],
  mode: MatchMode,
  prefixLast: boolean,
): Promise<number> {
  const parts = groups.map((alternatives, i) => {
    const [first = '', ...rest] = alternatives;
    const prefix = prefixLast && i === groups.length - 1 && first.length >= 3;
    const upper = prefixEnd(first);
    const words = prefix ? rest : alternatives;
    const exact = words.length > 0 ? sql`term in (${sql.join(words)})` : sql`false`;
    const where = prefix ? sql`(${exact} or (term >= ${first} and term < ${upper}))` : exact;
    return sql`select ${i}::int as g, doc from catalog_terms where ${where}`;
  });
  const rows = await sql<{
    g: number;
    n: number;
  }>`select g, sum(doc) as n from (${sql.join(parts, sql` union all `)}) t
    group by g`.execute(db);
  const counts = groups.map((_, i) => Number(rows.rows.find((row) => Number(row.g) === i)?.n ?? 0));
  return mode === 'and' ? Math.min(...counts) : counts.reduce((sum, n) => sum + n, 0);
}

/** A typed prefix is spelled out as the listed words it starts when they are at most this many. */
export const SPELLED_PREFIX = 16;

/** The listed words a prefix starts, in order, up to SPELLED_PREFIX + 1 (more: too many to spell out). */
export async function listedWordsStarting(db: Kysely<Database>, prefix: string): Promise<string[]> {
  const rows = await db
    .selectFrom('catalog_terms')
    .select('term')
    .where('term', '>=', prefix)
    .where('term', '<', prefixEnd(prefix))
    .orderBy('term')
    .limit(SPELLED_PREFIX + 1)
    .execute();
  return rows.map((row) => row.term);
}
