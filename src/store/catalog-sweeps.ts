import type { Db } from './schema.js';

// What an update import (next month's Open Library dump) does with the entries already in the
// catalog: finds which changed, marks the unchanged ones as seen, and deletes those gone from the dump.

/** The stored `source_modified` of the entries among `keys` that exist. */
export async function sourceModifiedOf(db: Db, keys: readonly string[]): Promise<Map<string, string | null>> {
  const found = new Map<string, string | null>();
  for (let i = 0; i < keys.length; i += 5000) {
    const rows = await db
      .selectFrom('catalog_entries')
      .select(['entry_key', 'source_modified'])
      .where('entry_key', 'in', keys.slice(i, i + 5000))
      .execute();
    for (const row of rows) found.set(row.entry_key, row.source_modified ?? null);
  }
  return found;
}

/** Marks unchanged entries as seen by this import (their `updated_at`), leaving the search index alone. */
export async function touchEntries(db: Db, keys: readonly string[], now: string) {
  for (let i = 0; i < keys.length; i += 5000) {
    await db
      .updateTable('catalog_entries')
      .set({ updated_at: now })
      .where('entry_key', 'in', keys.slice(i, i + 5000))
      .execute();
  }
}

/** Deletes entries and their identifier rows; `where` picks them by source and age or by identifier. */
async function deleteEntriesWhere(db: Db, pick: (db: Db) => ReturnType<typeof selectIds>): Promise<number> {
  await db.deleteFrom('catalog_identifiers').where('entry_id', 'in', pick(db)).execute();
  const result = await db.deleteFrom('catalog_entries').where('id', 'in', pick(db)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

function selectIds(db: Db) {
  return db.selectFrom('catalog_entries').select('id');
}

/** Entries of `source` an import starting at `before` did not write or touch: gone from the dump. */
export function deleteEntriesNotSeenSince(db: Db, source: string, before: string) {
  return deleteEntriesWhere(db, (inner) =>
    selectIds(inner).where('source', '=', source).where('updated_at', '<', before),
  );
}

/** Entries of `source` carrying one of `values` under `scheme` (explicit deletes in a dump). */
export function deleteEntriesByIdentifier(db: Db, source: string, scheme: string, values: readonly string[]) {
  if (values.length === 0) return Promise.resolve(0);
  return deleteEntriesWhere(db, (inner) =>
    selectIds(inner)
      .where('source', '=', source)
      .where(
        'id',
        'in',
        inner
          .selectFrom('catalog_identifiers')
          .select('entry_id')
          .where('scheme', '=', scheme)
          .where('value', 'in', values),
      ),
  );
}
