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

/** One chunk of results as one flat array. */
export function packResults(results: readonly ParseResult[]): PackedResults {
  const packed: Value[] = [];
  for (const result of results) {
    if (!result.ok) {
      packed.push(0, result.reason, result.removes ?? null);
      continue;
    }
    packed.push(1);
    const entry = result.entry;
    for (const field of ENTRY_COLUMNS) packed.push(entry[field] ?? null);
    packLinks(result.links, packed);
  }
  return packed;
}

/**
 * An object literal in `ENTRY_COLUMNS` order (the unit test round-trips every field): one allocation
 * of a fixed shape. Values keep the type they were packed with; an absent field comes back as null.
 */
function unpackEntry(a: readonly Value[], i: number): NewCatalogEntryRow {
  const text = (at: number) => a[i + at] as string;
  const number = (at: number) => a[i + at] as number;
  // `satisfies`: a field added to the table and missing here fails to compile.
  return {
    entry_key: text(0),
    source: text(1),
    isbn13: text(2),
    isbn10: text(3),
    title: text(4),
    subtitle: text(5),
    authors: text(6),
    published_date: text(7),
    publisher: text(8),
    cover_url: text(9),
    language: text(10),
    format: text(11),
    pages: number(12),
    description: text(13),
    identifiers: text(14),
    match_key: text(15),
    popularity: number(16),
    updated_at: text(17),
    work_key: text(18),
    work_title: text(19),
    first_year: number(20),
    source_modified: text(21),
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
