import { matchKeyWithAuthors } from '../../domain/text.js';
import type { BulkStore } from '../../store/catalog-copy.js';
import {
  deleteEntriesByIdentifier,
  deleteEntriesNotSeenSince,
  sourceModifiedOf,
  touchEntries,
} from '../../store/catalog-sweeps.js';
import { type IdentifierRoute, mergePendingIdentifiers } from '../../store/deferred-indexes.js';
import type { ImportDb } from '../../store/import-runs.js';
import type { KeyFilter } from '../../store/key-filter.js';
import { olAuthorNames, olWorks, type StagedWork } from '../../store/openlibrary-staging.js';
import type { BatchSink } from './batches.js';
import type { ParseResult } from './types.js';
import { upsertWriter } from './writer.js';

// The editions dump's writing side: parsed editions joined to the works and authors staged before
// them, unchanged ones skipped on a re-import, the rest upserted, and what the dump dropped deleted.

export type Accepted = Extract<ParseResult, { ok: true }>;

/**
 * Editions joined to their works and authors at a time (a key lookup per staging table each). Joins of
 * 5,000 kept the waiting editions alive across young-generation collections, which copied and promoted
 * them (SQLite, 1M editions, four alternating pairs: 3 % less time, 25-45 MB less peak memory and a
 * fifth fewer page faults with 1,000; PostgreSQL: see `copyWriter`).
 */
const ROWS_PER_JOIN = 1000;

/** An edition's own author keys, else its work's. */
function authorKeysOf(result: Accepted, works: ReadonlyMap<string, StagedWork>): string[] {
  const own = result.links?.authorKeys;
  if (own && own.length > 0) return own;
  const work = result.entry.work_key ? works.get(result.entry.work_key) : undefined;
  return work?.authorKeys ? work.authorKeys.split(',') : [];
}

/** A batch's staged works and author names, and each edition's author keys in batch order. */
interface Joined {
  works: ReadonlyMap<string, StagedWork>;
  keysOf: string[][];
  names: ReadonlyMap<string, string>;
}

/** What the editions' batches share: the run, what was removed, where identifiers go. */
export interface EditionsState {
  reimport: boolean;
  startedAt: string;
  removed: number;
  identifiers: IdentifierRoute;
  /** PostgreSQL, a first import: the keys written so far (see `WriterOptions.written`). */
  written?: KeyFilter;
}

/**
 * The editions' sink: buffers parsed editions, joins a few thousand at a time to their staged works
 * and authors, skips the ones a re-import finds unchanged (same `last_modified`) and upserts the rest.
 * On the file's last batch it removes the entries this dump no longer holds.
 */
export function joiningSink(trx: ImportDb, store: BulkStore, state: EditionsState): BatchSink {
  const writer = upsertWriter(trx, store, {
    identifierRoute: () => state.identifiers,
    ...(state.written ? { written: state.written } : {}),
  });
  // Staged works and authors were committed before the editions: where the store has a connection of
  // its own for such reads (PostgreSQL), a batch is looked up there while the one before is written.
  const reads = store.committedReads ?? trx;
  let buffer: Accepted[] = [];
  let removes: string[] = [];
  /** A batch's works and author names, from the staging tables. */
  const lookUp = async (batch: readonly Accepted[]): Promise<Joined> => {
    // Plain loops and one list of author keys per edition: the per-edition arrays of `flatMap` and
    // the keys split twice were a good part of the writing thread's garbage.
    const workKeys = new Set<string>();
    for (const result of batch) if (result.entry.work_key) workKeys.add(result.entry.work_key);
    const works = await olWorks(reads, store, [...workKeys]);
    const keysOf: string[][] = [];
    const authorKeys = new Set<string>();
    for (const result of batch) {
      const keys = authorKeysOf(result, works);
      keysOf.push(keys);
      for (const key of keys) authorKeys.add(key);
    }
    const names = await olAuthorNames(reads, store, [...authorKeys]);
    return { works, keysOf, names };
  };
  /** Joins a looked-up batch and writes it. */
  const emit = async (batch: Accepted[], { works, keysOf, names }: Joined) => {
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
    let changed = batch;
    if (state.reimport) {
      // What the statements before wrote is read back below.
      await writer.flush();
      const stored = await sourceModifiedOf(
        trx,
        batch.map((r) => r.entry.entry_key),
      );
      const same = (r: Accepted) =>
        !!r.entry.source_modified && stored.get(r.entry.entry_key) === r.entry.source_modified;
      await touchEntries(
        trx,
        batch.filter(same).map((r) => r.entry.entry_key),
        state.startedAt,
      );
      changed = batch.filter((r) => !same(r));
    }
    // The writer sends each full statement as it fills (on PostgreSQL, merged by the server while
    // this thread goes on joining), so this waits only when one is still running before it.
    for (const result of changed) {
      const written = writer.add(result.entry, result.links);
      if (written) await written;
    }
  };
  // Where the lookups have a connection of their own (PostgreSQL), a batch's are sent before the batch
  // ahead of it is joined and written, so this thread does not wait for them: at 10M editions they took
  // the lookups' backend 24.7 µs an edition, about as much as this thread's own work (bench/README).
  let ahead: { batch: Accepted[]; joined: Promise<Joined> } | undefined;
  const write = async () => {
    const batch = buffer;
    buffer = [];
    if (!store.committedReads) {
      if (batch.length > 0) await emit(batch, await lookUp(batch));
      return;
    }
    const previous = ahead;
    ahead = undefined;
    if (batch.length > 0) {
      const joined = lookUp(batch);
      // Awaited when the batch is written; a failure until then must not count as unhandled.
      joined.catch(() => undefined);
      ahead = { batch, joined };
    }
    if (previous) await emit(previous.batch, await previous.joined);
  };
  /** Writes the buffered editions and the batch looked up ahead. */
  const drain = async () => {
    await write();
    await write();
  };
  return {
    add(result) {
      buffer.push(result);
      return buffer.length >= ROWS_PER_JOIN ? write() : undefined;
    },
    async remove(key) {
      removes.push(key);
    },
    async finish(ended) {
      await drain();
      await writer.flush();
      // Deletes find entries through the identifier index, so a first import fills it before its first
      // explicit delete (real editions dumps have none) or a re-import's final sweep. Otherwise the
      // indexes' restore merges it after the last batch (on PostgreSQL beside the index builds).
      const sweeps = ended && state.reimport;
      if (state.identifiers !== 'index' && (removes.length > 0 || sweeps)) {
        await mergePendingIdentifiers(trx, store.dialect);
        state.identifiers = 'index';
      }
      state.removed += await deleteEntriesByIdentifier(trx, 'openlibrary', 'ol_edition', removes);
      removes = [];
      // In the last batch's transaction: a killed import never leaves the sweep half done. A first import
      // found no entry older than its start, and writes none, so its sweep (two scans of the catalog,
      // about 0.9 s at 1M editions) would find nothing.
      if (sweeps) state.removed += await deleteEntriesNotSeenSince(trx, 'openlibrary', state.startedAt);
    },
  };
}
