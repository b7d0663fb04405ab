import { catalogWriter, type IdentifierPair, type WriterOptions } from '../../store/catalog-import.js';
import type { Store } from '../../store/db.js';
import type { ImportDb } from '../../store/import-runs.js';
import type { NewCatalogEntryRow } from '../../store/schema.js';
import type { EntryLinks } from './types.js';

export { tuneForImport } from '../../store/catalog-import.js';

/** Keys of `catalog_entries.identifiers` that are notes kept for search, not identifiers. */
const NOT_IDENTIFIERS: ReadonlySet<string> = new Set(['series', 'original_title', 'ol_authors']);

/**
 * What the identifier index gets for one entry: its ISBNs, the identifiers in its JSON and every
 * further value the parser found (an edition's second OCLC number), each pair once.
 */
export function identifierPairs(entry: NewCatalogEntryRow, links?: EntryLinks): IdentifierPair[] {
  const pairs: IdentifierPair[] = [];
  const seen = new Set<string>();
  const add = (scheme: string, value: string | null | undefined) => {
    if (!value) return;
    const key = `${scheme}\0${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    pairs.push([scheme, value]);
  };
  add('isbn13', entry.isbn13);
  add('isbn10', entry.isbn10);
  // A parser that lists every identifier (Open Library's) spares re-reading the JSON it just wrote.
  // Its few pairs are compared in place: a key string per pair cost more in garbage than the search.
  if (links?.identifiers) {
    for (const pair of links.identifiers) {
      if (pair[1] && !pairs.some(([scheme, value]) => scheme === pair[0] && value === pair[1]))
        pairs.push(pair);
    }
    return pairs;
  }
  const json: unknown = JSON.parse(entry.identifiers ?? '{}');
  if (json && typeof json === 'object') {
    for (const [scheme, value] of Object.entries(json)) {
      if (!NOT_IDENTIFIERS.has(scheme) && typeof value === 'string') add(scheme, value);
    }
  }
  return pairs;
}

export interface UpsertWriter {
  /** Queues an entry; a full statement's worth is written at once, with its identifiers indexed. */
  add(entry: NewCatalogEntryRow, links?: EntryLinks): Promise<void>;
  /** Writes what is queued. */
  flush(): Promise<void>;
}

/** The importers' writer: entries upserted in file order and their identifiers indexed (see store). */
export function upsertWriter(
  db: ImportDb,
  store: Pick<Store, 'dialect' | 'sqlite'>,
  options?: WriterOptions,
): UpsertWriter {
  const writer = catalogWriter(db, store, options);
  return {
    add: (entry, links) => writer.add(entry, identifierPairs(entry, links)),
    flush: () => writer.flush(),
  };
}
