import { sql } from 'kysely';
import type { Db } from './schema.js';

/**
 * Failed sign-ins per key (`account:<email>`, `ip:<address>`) in a window of fixed length. An attempt
 * reserves its slot with one atomic upsert before the password is checked, so a burst of parallel
 * attempts is counted one by one, on every instance, whatever the database.
 */

/**
 * Counts one more attempt under `key` and returns the count, this attempt included. A window that
 * started before `since` starts over; the attempt that reaches `limit` restarts the window, so a
 * lock lasts a full period from the attempt that reached it.
 */
export async function reserveLoginAttempt(
  db: Db,
  key: string,
  limit: number,
  now: string,
  since: string,
): Promise<number> {
  const row = await db
    .insertInto('admin_login_throttle')
    .values({ key, failures: 1, window_started_at: now })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        failures: sql<number>`case when admin_login_throttle.window_started_at < ${since} then 1 else admin_login_throttle.failures + 1 end`,
        window_started_at: sql<string>`case when admin_login_throttle.window_started_at < ${since} or admin_login_throttle.failures + 1 = ${limit} then ${now} else admin_login_throttle.window_started_at end`,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  return Number(row.failures);
}

/** Gives back one reserved slot (an attempt that turned out to be right does not count as a failure). */
export async function releaseLoginAttempt(db: Db, key: string): Promise<void> {
  await db
    .updateTable('admin_login_throttle')
    .set({ failures: sql<number>`case when failures > 0 then failures - 1 else 0 end` })
    .where('key', '=', key)
    .execute();
}

/** Forgets every failure under `key` (the account's owner proved the password). */
export async function clearLoginAttempts(db: Db, key: string): Promise<void> {
  await db.deleteFrom('admin_login_throttle').where('key', '=', key).execute();
}

/** Drops windows that ended: the table holds only the last period's keys. */
export async function pruneLoginAttempts(db: Db, since: string): Promise<void> {
  await db.deleteFrom('admin_login_throttle').where('window_started_at', '<', since).execute();
}
