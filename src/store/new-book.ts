import { sql } from 'kysely';
import { takenSlugs } from './books.js';
import type { Store } from './db.js';
import {
  freeCopyIdentifiers,
  PUBLIC_DOMAIN_ENTRIES,
  PUBLIC_DOMAIN_SOURCES,
  publicDomainEntries,
} from './public-domain.js';
import { findWork } from './works.js';

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
  free: Array<{ identifiers: string }>;
  by_key: number | null;
  sibling: number | null;
  taken: string[];
}

/**
 * The reads a book's creation starts with, at once. PostgreSQL answers them in one statement, one round
 * trip with four subqueries, which took less time than the four queries on four pooled connections
 * (bench/README, "/isbn/ creation"); SQLite, in process, runs them one after another.
 */
export async function newBookFacts(store: Store, question: NewBookQuestion): Promise<NewBookFacts> {
  const { matchKey, workKey, slugs } = question;
  if (store.dialect !== 'postgres') {
    const [entries, workId, taken] = await Promise.all([
      matchKey ? publicDomainEntries(store.db, matchKey) : [],
      findWork(store.db, { workKey, matchKey }),
      takenSlugs(store.db, slugs),
    ]);
    return { freeCopies: freeCopyIdentifiers(entries), workId, takenSlugs: taken };
  }
  // A null key matches nothing, as the separate reads skip it. The sibling's rows are read through the
  // match key's index before they are ordered ("offset 0" keeps the planner from walking the whole
  // books table in id order instead, which it does for "order by id limit 1" while the table has no
  // statistics yet).
  const slugIn = slugs.length > 0 ? sql`slug in (${sql.join(slugs)})` : sql`false`;
  const result = await sql<FactsRow>`select
      (select coalesce(json_agg(f), '[]') from (select identifiers from catalog_entries
        where match_key = ${matchKey} and source in (${sql.join(PUBLIC_DOMAIN_SOURCES)})
        order by popularity desc limit ${PUBLIC_DOMAIN_ENTRIES}) f) as free,
      (select id from works where work_key = ${workKey}) as by_key,
      (select work_id from (select id, work_id from books
        where match_key = ${matchKey} and work_id is not null offset 0) s order by id limit 1) as sibling,
      (select coalesce(json_agg(slug), '[]') from books where ${slugIn}) as taken`.execute(store.db);
  const row = result.rows[0];
  if (!row) throw new Error('the new book facts returned no row');
  return {
    freeCopies: freeCopyIdentifiers(row.free),
    workId: row.by_key ?? row.sibling,
    takenSlugs: new Set(row.taken),
  };
}
