import { sql } from 'kysely';
import type { Db } from './schema.js';

/** The stored counters of API usage: calls per day, key, `source` parameter and route. */
export interface UsageRow {
  day: string;
  keyId: number | null;
  source: string | null;
  route: string;
  count: number;
}

// 5 columns a row: far below either database's bound-parameter limit.
const ROWS_PER_STATEMENT = 500;

/** Adds counts to the stored counters; rows must be unique on (day, key, source, route). */
export async function addUsage(db: Db, rows: readonly UsageRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      const values = rows.slice(start, start + ROWS_PER_STATEMENT).map((row) => ({
        day: row.day,
        key_id: row.keyId ?? 0,
        source: row.source ?? '',
        route: row.route,
        count: row.count,
      }));
      await trx
        .insertInto('api_usage')
        .values(values)
        .onConflict((conflict) =>
          conflict
            .columns(['day', 'key_id', 'source', 'route'])
            .doUpdateSet({ count: sql<number>`api_usage.count + excluded.count` }),
        )
        .execute();
    }
  });
}

/** Stored counters, newest day first (for the operator's usage view and tests). */
export async function listUsage(db: Db, since?: string): Promise<UsageRow[]> {
  let query = db.selectFrom('api_usage').selectAll();
  if (since) query = query.where('day', '>=', since);
  const rows = await query
    .orderBy('day', 'desc')
    .orderBy('key_id')
    .orderBy('source')
    .orderBy('route')
    .execute();
  return rows.map((row) => ({
    day: row.day,
    keyId: Number(row.key_id) || null,
    source: row.source || null,
    route: row.route,
    count: Number(row.count),
  }));
}
