import { sql } from 'kysely';
import type { Db } from './schema.js';

export interface QueryCount {
  query: string;
  count: number;
}

export interface SearchStats {
  searches: number;
  zeroResults: QueryCount[];
  misses: QueryCount[];
  /** Queries whose results readers voted down more than up. */
  lowVoted: Array<QueryCount & { positive: number }>;
}

/** What readers searched for and did not find: each row is something an operator can fix. */
export async function searchStats(db: Db, since: string, limit = 10): Promise<SearchStats> {
  const total = await db
    .selectFrom('searches')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  const zero = await db
    .selectFrom('searches')
    .select([(eb) => eb.fn.min('query').as('query'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', since)
    .where('result_count', '=', 0)
    .groupBy('query_key')
    .orderBy(sql`count(*)`, 'desc')
    .limit(limit)
    .execute();
  const misses = await db
    .selectFrom('search_misses')
    .select([(eb) => eb.fn.min('query').as('query'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('created_at', '>=', since)
    .groupBy(sql`lower(query)`)
    .orderBy(sql`count(*)`, 'desc')
    .limit(limit)
    .execute();
  const votes = await sql<{ query: string; negative: number; positive: number }>`
    select min(s.query) as query,
      sum(case when v.feedback = 'negative' then 1 else 0 end) as negative,
      sum(case when v.feedback = 'positive' then 1 else 0 end) as positive
    from search_votes v join searches s on s.id = v.sfid
    where v.created_at >= ${since}
    group by s.query_key
    having sum(case when v.feedback = 'negative' then 1 else 0 end) > sum(case when v.feedback = 'positive' then 1 else 0 end)
    order by 2 desc
    limit ${limit}`.execute(db);
  return {
    searches: Number(total.n),
    zeroResults: zero.map((row) => ({ query: String(row.query), count: Number(row.n) })),
    misses: misses.map((row) => ({ query: String(row.query), count: Number(row.n) })),
    lowVoted: votes.rows.map((row) => ({
      query: row.query,
      count: Number(row.negative),
      positive: Number(row.positive),
    })),
  };
}

/** Titles and slugs for the book ids of a report. */
export async function bookLabels(
  db: Db,
  ids: number[],
): Promise<Map<number, { slug: string; title: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('books').select(['id', 'slug', 'title']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [Number(row.id), { slug: row.slug, title: row.title }]));
}
