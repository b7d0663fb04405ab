import type { Db } from './schema.js';

/** Where a new edition's work is found: the source's work key (Open Library), or its title/author key. */
export interface WorkHint {
  workKey: string | null;
  matchKey: string | null;
}

/**
 * The work an edition belongs to: by the source's work key, else by an existing edition with the same
 * title/author key; null when neither knows one (the edition's work is created with it: `insertBook`).
 * The two lookups go out together.
 */
export async function findWork(db: Db, hint: WorkHint): Promise<number | null> {
  const { workKey, matchKey } = hint;
  const [byKey, sibling] = await Promise.all([
    workKey ? workByKey(db, workKey).executeTakeFirst() : undefined,
    matchKey ? siblingWork(db, matchKey).executeTakeFirst() : undefined,
  ]);
  if (byKey) return Number(byKey.id);
  return sibling?.work_id ? Number(sibling.work_id) : null;
}

/** The work of a source's work key. */
export const workByKey = (db: Db, workKey: string | null) =>
  db.selectFrom('works').select('id').where('work_key', '=', workKey);

/** The works of the editions with a title/author key, the first edition's first. */
export const siblingWork = (db: Db, matchKey: string | null) =>
  db
    .selectFrom('books')
    .select('work_id')
    .where('match_key', '=', matchKey)
    .where('work_id', 'is not', null)
    .orderBy('id');

export interface NewWork {
  workKey: string | null;
  title: string;
}

/**
 * Creates a work inside the caller's transaction. A work key another creator filed a moment ago is
 * not an error: that work is the one (the insert waits for the other transaction, then finds it).
 */
export async function createWork(trx: Db, work: NewWork, now: string): Promise<number> {
  const row = await trx
    .insertInto('works')
    .values({ work_key: work.workKey, title: work.title, canonical_book_id: null, created_at: now })
    .onConflict((oc) => oc.column('work_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (row) return Number(row.id);
  const existing = await trx
    .selectFrom('works')
    .select('id')
    .where('work_key', '=', work.workKey)
    .executeTakeFirstOrThrow();
  return Number(existing.id);
}

/** The book id of a work's canonical edition: the work by its id or its Open Library key; null when unknown. */
export async function canonicalEditionOf(
  db: Db,
  work: { id: number } | { workKey: string },
): Promise<number | null> {
  const row = await db
    .selectFrom('works')
    .select('canonical_book_id')
    .$call((query) =>
      'id' in work ? query.where('id', '=', work.id) : query.where('work_key', '=', work.workKey),
    )
    .executeTakeFirst();
  return row?.canonical_book_id == null ? null : Number(row.canonical_book_id);
}
