import { matchKeyWithAuthors } from '../../domain/text.js';
import type { StagedWork } from '../../store/openlibrary-staging.js';
import type { ParseResult } from './types.js';

// The editions' join to the staged works and authors dumps: each edition gets its work's title, first
// publication year and grouping key, and its authors' names (its own author keys, else its work's).
// The writing thread runs it, or on SQLite the parse worker, on a connection of its own (see
// `workerRows`), so the two threads share the import's work more evenly.

export type Accepted = Extract<ParseResult, { ok: true }>;

type Maybe<T> = T | Promise<T>;

/** Where a join reads the staged works and author names from: a store, or the worker's own connection. */
export interface StagedSource {
  works(keys: readonly string[]): Maybe<ReadonlyMap<string, StagedWork>>;
  authorNames(keys: readonly string[]): Maybe<ReadonlyMap<string, string>>;
}

/** A batch's staged works and author names, and each edition's author keys in batch order. */
export interface Joined {
  works: ReadonlyMap<string, StagedWork>;
  keysOf: string[][];
  names: ReadonlyMap<string, string>;
}

/** An edition's own author keys, else its work's. */
function authorKeysOf(result: Accepted, works: ReadonlyMap<string, StagedWork>): string[] {
  const own = result.links?.authorKeys;
  if (own && own.length > 0) return own;
  const work = result.entry.work_key ? works.get(result.entry.work_key) : undefined;
  return work?.authorKeys ? work.authorKeys.split(',') : [];
}

/** A batch's works and author names, one lookup of each. */
export async function lookUpJoin(batch: readonly Accepted[], source: StagedSource): Promise<Joined> {
  // Plain loops and one list of author keys per edition: the per-edition arrays of `flatMap` and
  // the keys split twice were a good part of the writing thread's garbage.
  const workKeys = new Set<string>();
  for (const result of batch) if (result.entry.work_key) workKeys.add(result.entry.work_key);
  const works = await source.works([...workKeys]);
  const keysOf: string[][] = [];
  const authorKeys = new Set<string>();
  for (const result of batch) {
    const keys = authorKeysOf(result, works);
    keysOf.push(keys);
    for (const key of keys) authorKeys.add(key);
  }
  const names = await source.authorNames([...authorKeys]);
  return { works, keysOf, names };
}

/** Writes the looked-up works and names into the batch's entries. */
export function applyJoin(batch: readonly Accepted[], { works, keysOf, names }: Joined): void {
  let at = 0;
  for (const result of batch) {
    const entry = result.entry;
    const authors: string[] = [];
    for (const key of keysOf[at++] ?? []) {
      const name = names.get(key);
      if (name !== undefined && !authors.includes(name)) authors.push(name);
    }
    if (authors.length > 0) {
      entry.authors = JSON.stringify(authors);
      // The parser keyed the title with the by-statement's names.
      entry.match_key = matchKeyWithAuthors(entry.match_key ?? null, authors);
    }
    const work = entry.work_key ? works.get(entry.work_key) : undefined;
    entry.work_title = work?.title ?? null;
    entry.first_year = work?.firstYear ?? null;
  }
}

/** Joins the accepted editions among `results` (skipped lines pass through), in place. */
export async function joinResults(results: readonly ParseResult[], source: StagedSource): Promise<void> {
  const accepted: Accepted[] = [];
  for (const result of results) if (result.ok) accepted.push(result);
  if (accepted.length > 0) applyJoin(accepted, await lookUpJoin(accepted, source));
}
