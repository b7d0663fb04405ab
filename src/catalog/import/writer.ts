import { IDENTIFIER_NOTES, UniquePairs } from '../../domain/identifiers.js';
import { type BulkStore, bulkCatalogWriter } from '../../store/catalog-copy.js';
import type { IdentifierPair, WriterOptions } from '../../store/catalog-import.js';
import type { ImportDb } from '../../store/import-runs.js';
import type { NewCatalogEntryRow } from '../../store/schema.js';
import type { EntryLinks } from './types.js';

export { tuneForImport } from '../../store/catalog-import.js';

/**
 * What the identifier index gets for one entry: its ISBNs, the identifiers in its JSON and every
 * further value the parser found (an edition's second OCLC number), each pair once.
 */
export function identifierPairs(entry: NewCatalogEntryRow, links?: EntryLinks): IdentifierPair[] {
  // A parser that lists every identifier (Open Library's) spares re-reading the JSON it just wrote.
  if (links?.identifiers) return listedPairs(entry, links.identifiers);
  const unique = new UniquePairs();
  if (entry.isbn13) unique.add('isbn13', entry.isbn13);
  if (entry.isbn10) unique.add('isbn10', entry.isbn10);
  const json: unknown = JSON.parse(entry.identifiers ?? '{}');
  if (json && typeof json === 'object') {
    // Notes kept for search (series, original titles) are no identifiers.
    for (const [scheme, value] of Object.entries(json)) {
      if (!IDENTIFIER_NOTES.has(scheme) && typeof value === 'string' && value) unique.add(scheme, value);
    }
  }
  return unique.pairs;
}

/**
 * `identifierPairs` of an entry whose parser listed its identifiers: the entry's ISBNs, then each
 * listed pair not yet there. The few pairs are compared in place, in plain loops: a key string per
 * pair, a Set and closures per entry made the writing thread's largest share of garbage after the rows
 * themselves (200,000 editions: about 240 MB).
 */
function listedPairs(entry: NewCatalogEntryRow, listed: readonly IdentifierPair[]): IdentifierPair[] {
  const pairs: IdentifierPair[] = [];
  if (entry.isbn13) pairs.push(['isbn13', entry.isbn13]);
  if (entry.isbn10) pairs.push(['isbn10', entry.isbn10]);
  for (const pair of listed) if (pair[1] && !includesPair(pairs, pair)) pairs.push(pair);
  return pairs;
}

function includesPair(pairs: readonly IdentifierPair[], pair: IdentifierPair): boolean {
  for (const kept of pairs) if (kept[0] === pair[0] && kept[1] === pair[1]) return true;
  return false;
}

export interface UpsertWriter {
  /**
   * Queues an entry; a full statement's worth is written at once, with its identifiers indexed. A
   * promise only when it writes.
   */
  add(entry: NewCatalogEntryRow, links?: EntryLinks): Promise<void> | undefined;
  /** Writes what is queued. */
  flush(): Promise<void>;
}

/** The importers' writer: entries upserted in file order and their identifiers indexed (see store). */
export function upsertWriter(
  db: ImportDb,
  store: Pick<BulkStore, 'dialect' | 'sqlite' | 'copy' | 'committedReads'>,
  options?: WriterOptions,
): UpsertWriter {
  const writer = bulkCatalogWriter(db, store, options);
  return {
    add: (entry, links) => writer.add(entry, identifierPairs(entry, links)),
    flush: () => writer.flush(),
  };
}
