import type { Kysely } from 'kysely';
import { nowIso } from './db.js';
import { isUniqueViolation } from './errors.js';
import type { Database } from './schema.js';

export interface WorkHint {
  workKey: string | null;
  title: string;
  matchKey: string | null;
}

/**
 * The work an edition belongs to: by the source's work key (Open Library), else by an existing
 * edition with the same title/author key, else a new work.
 */
export async function findOrCreateWork(db: Kysely<Database>, hint: WorkHint): Promise<number> {
  if (hint.workKey) {
    const byKey = await db
      .selectFrom('works')
      .select('id')
      .where('work_key', '=', hint.workKey)
      .executeTakeFirst();
    if (byKey) return Number(byKey.id);
  }
  if (hint.matchKey) {
    const sibling = await db
      .selectFrom('books')
      .select('work_id')
      .where('match_key', '=', hint.matchKey)
      .where('work_id', 'is not', null)
      .orderBy('id')
      .executeTakeFirst();
    if (sibling?.work_id) return Number(sibling.work_id);
  }
  try {
    const row = await db
      .insertInto('works')
      .values({ work_key: hint.workKey, title: hint.title, canonical_book_id: null, created_at: nowIso() })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  } catch (error) {
    // Another creator made the same work a moment ago.
    if (hint.workKey && isUniqueViolation(error, 'work_key')) {
      const row = await db
        .selectFrom('works')
        .select('id')
        .where('work_key', '=', hint.workKey)
        .executeTakeFirstOrThrow();
      return Number(row.id);
    }
    throw error;
  }
}

/** Sets the work's canonical edition if it has none yet: the first edition created leads. */
export async function claimCanonical(db: Kysely<Database>, workId: number, bookId: number): Promise<void> {
  await db
    .updateTable('works')
    .set({ canonical_book_id: bookId })
    .where('id', '=', workId)
    .where('canonical_book_id', 'is', null)
    .execute();
}

export async function canonicalEditionOf(db: Kysely<Database>, workId: number): Promise<number | null> {
  const row = await db
    .selectFrom('works')
    .select('canonical_book_id')
    .where('id', '=', workId)
    .executeTakeFirst();
  return row?.canonical_book_id == null ? null : Number(row.canonical_book_id);
}
