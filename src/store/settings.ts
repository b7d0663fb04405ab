import type { Db } from './schema.js';

/**
 * The stored value of a setting, created with `make()` the first time. Several instances starting at
 * once agree: the first insert wins and everyone reads it back.
 */
export async function settingOrCreate(db: Db, key: string, make: () => string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: make() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  return row.value;
}
