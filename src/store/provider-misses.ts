import type { Db } from './schema.js';

/**
 * The negative cache of the provider chain: ISBNs no source knew, each until `expires_at` (ISO
 * text, so string order is time order on both databases).
 */

export async function isProviderMiss(db: Db, isbn13: string, now = new Date()): Promise<boolean> {
  const row = await db
    .selectFrom('provider_misses')
    .select('isbn13')
    .where('isbn13', '=', isbn13)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  return row !== undefined;
}

export async function rememberProviderMiss(db: Db, isbn13: string, expiresAt: Date): Promise<void> {
  const expires_at = expiresAt.toISOString();
  await db
    .insertInto('provider_misses')
    .values({ isbn13, expires_at })
    .onConflict((conflict) => conflict.column('isbn13').doUpdateSet({ expires_at }))
    .execute();
}

/** Forgets a miss, e.g. when an import or an admin adds the book. */
export async function forgetProviderMiss(db: Db, isbn13: string): Promise<void> {
  await db.deleteFrom('provider_misses').where('isbn13', '=', isbn13).execute();
}

/** Deletes expired misses; answers how many went. */
export async function purgeExpiredProviderMisses(db: Db, now = new Date()): Promise<number> {
  const result = await db
    .deleteFrom('provider_misses')
    .where('expires_at', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Remembers ISBNs no source knows, so a second visit does not ask every provider again. */
export interface MissCache {
  isMiss(isbn13: string): Promise<boolean>;
  remember(isbn13: string, ttlMs: number): Promise<void>;
}

/** The chain's MissCache backed by this table. */
export function providerMissCache(db: Db, now: () => Date = () => new Date()): MissCache {
  return {
    isMiss: (isbn13) => isProviderMiss(db, isbn13, now()),
    remember: (isbn13, ttlMs) => rememberProviderMiss(db, isbn13, new Date(now().getTime() + ttlMs)),
  };
}
