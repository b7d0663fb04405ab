import { ENTRY_COLUMNS, type NewCatalogEntryRow } from '../../store/schema.js';
import type { EntryLinks, ParseResult, SkipReason } from './types.js';

// The parse worker's results cross to the writing thread as one flat array of strings, numbers and
// nulls a chunk instead of structured-cloned objects: cloning wrote and read every property name of
// every row, and the writing thread (the import's bottleneck on SQLite) rebuilt each object key by key
// (20,000 editions: 5.4 µs a row to deserialize objects, 3.8 µs to deserialize and unpack the array).
// A row is `1`, its entry's fields in `ENTRY_COLUMNS` order, then its identifier pairs and its author
// keys, each list as its length (-1: absent) and its values; a skipped row is `0`, its reason and the
// edition it removes (or null).

type Value = string | number | null;

/** A chunk of results as the worker posts it. */
export type PackedResults = Value[];

function packLinks(links: EntryLinks | undefined, into: Value[]): void {
  const pairs = links?.identifiers;
  if (pairs) {
    into.push(pairs.length);
    for (const [scheme, value] of pairs) into.push(scheme, value);
  } else into.push(-1);
  const keys = links?.authorKeys;
  if (keys) {
    into.push(keys.length);
    for (const key of keys) into.push(key);
  } else into.push(-1);
}

/** Appends one result to a chunk's flat array. */
export function packResult(result: ParseResult, packed: PackedResults): void {
  if (!result.ok) {
    packed.push(0, result.reason, result.removes ?? null);
    return;
  }
  packed.push(1);
  const entry = result.entry;
  for (const field of ENTRY_COLUMNS) packed.push(entry[field] ?? null);
  packLinks(result.links, packed);
}

/**
 * An object literal in `ENTRY_COLUMNS` order (the unit test round-trips every field): one allocation
 * of a fixed shape. Values keep the type they were packed with; an absent field comes back as null.
 */
function unpackEntry(a: readonly Value[], i: number): NewCatalogEntryRow {
  // Indexed in place, without a helper closure: two closures a row were garbage on the writing thread.
  // `satisfies`: a field added to the table and missing here fails to compile.
  return {
    entry_key: a[i + 0] as string,
    source: a[i + 1] as string,
    isbn13: a[i + 2] as string,
    isbn10: a[i + 3] as string,
    title: a[i + 4] as string,
    subtitle: a[i + 5] as string,
    authors: a[i + 6] as string,
    published_date: a[i + 7] as string,
    publisher: a[i + 8] as string,
    cover_url: a[i + 9] as string,
    language: a[i + 10] as string,
    format: a[i + 11] as string,
    pages: a[i + 12] as number,
    description: a[i + 13] as string,
    identifiers: a[i + 14] as string,
    match_key: a[i + 15] as string,
    popularity: a[i + 16] as number,
    updated_at: a[i + 17] as string,
    work_key: a[i + 18] as string,
    work_title: a[i + 19] as string,
    first_year: a[i + 20] as number,
    source_modified: a[i + 21] as string,
  } satisfies Required<Omit<NewCatalogEntryRow, 'id'>>;
}

/** The results of one packed chunk, in order. */
export function unpackResults(a: readonly Value[]): ParseResult[] {
  const results: ParseResult[] = [];
  let i = 0;
  while (i < a.length) {
    if (a[i++] === 0) {
      const reason = a[i++] as SkipReason;
      const removes = a[i++] as string | null;
      results.push(removes === null ? { ok: false, reason } : { ok: false, reason, removes });
      continue;
    }
    const entry = unpackEntry(a, i);
    i += ENTRY_COLUMNS.length;
    const links: EntryLinks = {};
    let count = a[i++] as number;
    if (count >= 0) {
      const pairs: Array<readonly [string, string]> = new Array(count);
      for (let k = 0; k < count; k++, i += 2) pairs[k] = [a[i] as string, a[i + 1] as string];
      links.identifiers = pairs;
    }
    count = a[i++] as number;
    if (count >= 0) {
      const keys: string[] = new Array(count);
      for (let k = 0; k < count; k++) keys[k] = a[i++] as string;
      links.authorKeys = keys;
    }
    const linked = links.identifiers !== undefined || links.authorKeys !== undefined;
    results.push(linked ? { ok: true, entry, links } : { ok: true, entry });
  }
  return results;
}
