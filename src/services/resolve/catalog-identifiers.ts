import { catalogEntryToRecord } from '../../catalog/local.js';
import type { BookRecord } from '../../catalog/types.js';
import { catalogEntriesContainingIdentifier } from '../../store/catalog-entries.js';
import type { Db } from '../../store/schema.js';

const MAX_ROWS = 5;

/**
 * The catalog entry holding `scheme = value`, or null when none does or when entries disagree on
 * the edition (an identifier claimed by two different ISBNs is not trusted: no guessing).
 *
 * `catalog_entries.identifiers` is JSON text written by JSON.stringify (no spaces), so the pair
 * appears verbatim as `"scheme":"value"`; the bound LIKE pattern narrows the rows and the parsed
 * JSON confirms the exact pair. This scans the table: fine for tens of thousands of entries; a
 * lookup table would be the next step for million-entry catalogs.
 */
export async function findCatalogEntryByIdentifier(
  db: Db,
  scheme: string,
  value: string,
): Promise<BookRecord | null> {
  const pair = `${JSON.stringify(scheme)}:${JSON.stringify(value)}`;
  const rows = await catalogEntriesContainingIdentifier(db, pair, MAX_ROWS);
  const records = rows.map(catalogEntryToRecord).filter((record) => record.identifiers[scheme] === value);
  const first = records[0];
  if (!first) return null;
  const editions = new Set(records.map((record) => record.isbn13 ?? `title:${record.title}`));
  return editions.size === 1 ? first : null;
}
