import { catalogEntryToRecord } from '../../catalog/local.js';
import type { BookRecord } from '../../catalog/types.js';
import { catalogEntriesByIdentifier } from '../../store/catalog-identifiers.js';
import type { Db } from '../../store/schema.js';

const MAX_ROWS = 5;

/**
 * The catalog entry holding `scheme = value`, or null when none does or when entries disagree on
 * the edition (an identifier claimed by two different ISBNs is not trusted: no guessing).
 *
 * Every importer fills the identifier index (`catalog_identifiers`: scheme, value → entry), so this
 * is one index probe whatever the size of the catalog.
 */
export async function findCatalogEntryByIdentifier(
  db: Db,
  scheme: string,
  value: string,
): Promise<BookRecord | null> {
  const rows = await catalogEntriesByIdentifier(db, scheme, value, MAX_ROWS);
  const records = rows.map((row) => {
    const record = catalogEntryToRecord(row);
    // The index may hold a second value of a scheme (an edition's other OCLC number); the JSON keeps one.
    return { ...record, identifiers: { ...record.identifiers, [scheme]: value } };
  });
  const first = records[0];
  if (!first) return null;
  const editions = new Set(records.map((record) => record.isbn13 ?? `title:${record.title}`));
  return editions.size === 1 ? first : null;
}
