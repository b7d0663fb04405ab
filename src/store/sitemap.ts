import type { Db } from './schema.js';

export async function countBooks(db: Db): Promise<number> {
  const row = await db
    .selectFrom('books')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One sitemap page of book slugs, in id order. */
export function sitemapBooks(
  db: Db,
  limit: number,
  offset: number,
): Promise<{ slug: string; updated_at: string }[]> {
  return db
    .selectFrom('books')
    .select(['slug', 'updated_at'])
    .orderBy('id')
    .limit(limit)
    .offset(offset)
    .execute();
}
