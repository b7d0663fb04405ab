import { sql } from 'kysely';
import { slugsTaken, takenSlugs } from './books.js';
import type { Store } from './db.js';
import { freeCopyIdentifiers, publicDomainEntries } from './public-domain.js';
import { findWork, siblingWork, workByKey } from './works.js';

/** What a new edition brings to its creation's first reads. */
export interface NewBookQuestion {
  /** The edition's title/author key: free copies and sibling editions are found by it. */
  matchKey: string | null;
  /** The source's work key (Open Library). */
  workKey: string | null;
  /** The slugs the book may take, first choice first. */
  slugs: readonly string[];
}

/** What the database knows about a book before it is created. */
export interface NewBookFacts {
  /** Free copies' identifiers that public-domain catalogs confirm (see `freeCopyIdentifiers`). */
  freeCopies: Record<string, string>;
  /** The work the edition joins (see `findWork`), or null: the work is created with the book. */
  workId: number | null;
  /** Which of the slugs books hold. */
  takenSlugs: Set<string>;
}

interface FactsRow {
  /** The public-domain entries' identifier JSON, null for none. */
  free: string[] | null;
  by_key: number | null;
  sibling: number | null;
  taken: string[] | null;
}

/**
 * The reads a book's creation starts with, at once. PostgreSQL answers them in one statement, one round
 * trip with four subqueries, which took less time than the four queries on four pooled connections
 * (bench/README, "/isbn/ creation"); SQLite, in process, runs them one after another.
 */
export async function newBookFacts(store: Store, question: NewBookQuestion): Promise<NewBookFacts> {
  const { db } = store;
  const { matchKey, workKey, slugs } = question;
  if (store.dialect !== 'postgres') {
    const [entries, workId, taken] = await Promise.all([
      matchKey ? publicDomainEntries(db, matchKey).execute() : [],
      findWork(db, { workKey, matchKey }),
      takenSlugs(db, slugs),
    ]);
    return { freeCopies: freeCopyIdentifiers(entries), workId, takenSlugs: taken };
  }
  // The same queries as subqueries; a null key matches nothing, as the separate reads skip it. The
  // sibling's query is ordered inside its subquery, which keeps the planner from walking the whole
  // books table in id order instead, as it does for "order by id limit 1" while the table has no
  // statistics yet: the match key's index is read first.
  const taken = slugs.length > 0 ? sql`(select json_agg(slug) from (${slugsTaken(db, slugs)}) t)` : sql`null`;
  const result = await sql<FactsRow>`select
      (select json_agg(identifiers) from (${publicDomainEntries(db, matchKey)}) f) as free,
      (${workByKey(db, workKey)}) as by_key,
      (select work_id from (${siblingWork(db, matchKey)}) s limit 1) as sibling,
      ${taken} as taken`.execute(db);
  const row = result.rows[0];
  if (!row) throw new Error('the new book facts returned no row');
  return {
    freeCopies: freeCopyIdentifiers((row.free ?? []).map((identifiers) => ({ identifiers }))),
    workId: row.by_key ?? row.sibling,
    takenSlugs: new Set(row.taken ?? []),
  };
}
