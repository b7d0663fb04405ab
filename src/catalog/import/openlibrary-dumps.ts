import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { matchKeyWithAuthors } from '../../domain/text.js';
import type { BulkStore } from '../../store/catalog-copy.js';
import {
  deleteEntriesByIdentifier,
  deleteEntriesNotSeenSince,
  sourceModifiedOf,
  touchEntries,
} from '../../store/catalog-import.js';
import { nowIso, type Store } from '../../store/db.js';
import {
  catalogIsEmpty,
  deferCatalogIndexes,
  type IdentifierRoute,
  identifierRoute,
  mergePendingIdentifiers,
} from '../../store/deferred-indexes.js';
import type { ImportDb } from '../../store/import-runs.js';
import { KeyFilter } from '../../store/key-filter.js';
import {
  hasEntriesBefore,
  olAuthorNames,
  olWorks,
  type StagedWork,
  stageOlAuthors,
  stageOlWorks,
} from '../../store/openlibrary-staging.js';
import { type BatchSink, importRows } from './batches.js';
import { refreshStatisticsTold, restoreIndexesTold } from './finishing.js';
import {
  type StagedKind,
  type StagedLine,
  type StagedLines,
  type StagedRow,
  stagedLineParser,
} from './openlibrary-staged.js';
import { openRows } from './rows.js';
import { fileKey, freshRun, loadRun, type RunState, saveRun } from './runs.js';
import { isGzip, peekText, readLineChunks } from './source.js';
import { type ImportProgress, type ImportReports, type ImportSummary, summarise } from './summary.js';
import { ImportError, type ParseResult } from './types.js';
import { workerRows, workerStagedLines } from './worker-rows.js';
import { upsertWriter } from './writer.js';

export type DumpKind = 'authors' | 'works' | 'editions';
export type DumpFiles = Partial<Record<DumpKind, string>>;

export interface DumpsOptions extends ImportReports {
  coversBaseUrl: string;
  /** Imports every file again from its first line, even those an earlier run finished. */
  restart?: boolean;
  /** Lines per transaction (default 20,000). */
  batchSize?: number;
  /** Parse each dump in a worker thread (default: a dump of a megabyte or more). */
  parseInWorker?: boolean;
}

export interface DumpsSummary {
  files: ImportSummary[];
  /** Entries removed because the editions dump no longer has them (or deletes or redirects them). */
  removed: number;
}

const DEFAULT_BATCH_SIZE = 20_000;
const TYPE_OF_KIND: Readonly<Record<string, DumpKind>> = {
  '/type/author': 'authors',
  '/type/work': 'works',
  '/type/edition': 'editions',
};
const KEY_PREFIX: Readonly<Record<string, DumpKind>> = {
  authors: 'authors',
  works: 'works',
  books: 'editions',
};

/** Which dump a file is, from its first line's type (or key, for a dump that starts with deletes). */
export async function dumpKindOf(file: string): Promise<DumpKind> {
  const path = resolve(file);
  const stats = await stat(path).catch(() => null);
  if (!stats?.isFile()) throw new ImportError('file_not_found', `${path}: no such file`);
  const head = await peekText(path, await isGzip(path));
  const line = head.split('\n').find((text) => text.trim() !== '') ?? '';
  const [type = '', key = ''] = line.split('\t');
  const kind = TYPE_OF_KIND[type] ?? KEY_PREFIX[key.split('/')[1] ?? ''];
  if (!kind) {
    throw new ImportError('unknown_format', `${path}: not an Open Library authors, works or editions dump`);
  }
  return kind;
}

/** Sorts files given in any order into the three dumps; a kind given twice is an error. */
export async function classifyDumps(files: readonly string[]): Promise<DumpFiles> {
  const dumps: DumpFiles = {};
  for (const file of files) {
    const kind = await dumpKindOf(file);
    if (dumps[kind])
      throw new ImportError('unknown_format', `two ${kind} dumps given: ${dumps[kind]} and ${file}`);
    dumps[kind] = file;
  }
  return dumps;
}

interface FileRun {
  path: string;
  gzip: boolean;
  totalBytes: number;
  run: RunState;
}

const inWorker = (options: DumpsOptions, file: FileRun) =>
  options.parseInWorker ?? file.totalBytes >= 1 << 20;

async function openRun(store: Store, file: string, restart: boolean): Promise<FileRun> {
  const path = resolve(file);
  const stats = await stat(path);
  const key = fileKey(path, stats);
  const previous = restart ? null : await loadRun(store.db, key);
  return {
    path,
    gzip: await isGzip(path),
    totalBytes: stats.size,
    run: previous ?? freshRun(key, 'openlibrary', nowIso()),
  };
}

function progressOf(file: FileRun, run: RunState, started: number): ImportProgress {
  const elapsedMs = performance.now() - started;
  const rowsThisRun = run.rowsDone - file.run.rowsDone;
  const bytesThisRun = run.bytesDone - file.run.bytesDone;
  const bytesPerMs = elapsedMs > 0 ? bytesThisRun / elapsedMs : 0;
  return {
    file: file.path,
    format: 'openlibrary',
    rowsDone: run.rowsDone,
    imported: run.imported,
    skipped: Object.values(run.skipped).reduce((sum, n) => sum + n, 0),
    bytesDone: run.bytesDone,
    totalBytes: file.totalBytes,
    rowsPerSecond: elapsedMs > 0 ? (rowsThisRun * 1000) / elapsedMs : 0,
    elapsedMs,
    etaSeconds: bytesPerMs > 0 ? Math.max(0, file.totalBytes - run.bytesDone) / bytesPerMs / 1000 : null,
  };
}

/** `StagedLines` parsed in this thread, a stream chunk's lines at a time. */
function stagedLinesHere<K extends StagedKind>(file: FileRun, kind: K): StagedLines<K> {
  const source = readLineChunks(file.path, file.gzip);
  const parse = stagedLineParser(kind);
  async function* chunks() {
    let index = 0;
    for await (const lines of source.records) {
      const parsed: Array<StagedLine<StagedRow<K>>> = [];
      // Lines an earlier run committed are passed over unparsed.
      for (const line of lines) if (index++ >= file.run.rowsDone) parsed.push(parse(line));
      yield parsed;
    }
  }
  return { chunks: chunks(), bytesRead: source.bytesRead };
}

/**
 * Streams an authors or works dump into its staging table, a batch per transaction, resumably. A
 * dump of a megabyte or more is parsed in a worker thread while this one writes (see `DumpsOptions`).
 */
async function stageDump<K extends StagedKind>(
  store: Store,
  file: FileRun,
  kind: K,
  write: (trx: ImportDb, rows: Array<StagedRow<K>>) => Promise<void>,
  options: DumpsOptions,
): Promise<ImportSummary> {
  if (file.run.finished) return summarise(file.path, file.run, 'already_finished', 0, 0);
  const started = performance.now();
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  options.onStart?.({
    file: file.path,
    format: 'openlibrary',
    gzip: file.gzip,
    totalBytes: file.totalBytes,
    resumedFromRow: file.run.rowsDone,
  });
  const source: StagedLines<K> = inWorker(options, file)
    ? workerStagedLines({ file: file.path, gzip: file.gzip, skip: file.run.rowsDone, staged: kind })
    : stagedLinesHere(file, kind);
  let run = file.run;
  let rows: Array<StagedRow<K>> = [];
  let read = 0;
  let skipped: Record<string, number> = {};
  const commit = async (ended: boolean) => {
    const batch = rows;
    const next: RunState = {
      ...run,
      rowsDone: run.rowsDone + read,
      bytesDone: source.bytesRead(),
      imported: run.imported + batch.length,
      skipped: { ...run.skipped },
      finished: ended,
    };
    for (const [reason, n] of Object.entries(skipped)) next.skipped[reason] = (next.skipped[reason] ?? 0) + n;
    rows = [];
    read = 0;
    skipped = {};
    await store.db.transaction().execute(async (trx) => {
      await write(trx, batch);
      await saveRun(trx, next, nowIso());
    });
    run = next;
    options.onProgress?.(progressOf(file, run, started));
  };
  // Returning early (a failed write) ends the generator, which stops the stream or the worker.
  for await (const lines of source.chunks) {
    for (const parsed of lines) {
      read++;
      if (parsed.ok) rows.push(parsed.row);
      else skipped[parsed.reason] = (skipped[parsed.reason] ?? 0) + 1;
      if (read === batchSize) await commit(false);
    }
  }
  await commit(true);
  return summarise(file.path, run, 'completed', file.run.rowsDone, performance.now() - started);
}

type Accepted = Extract<ParseResult, { ok: true }>;

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
interface EditionsState {
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
function joiningSink(trx: ImportDb, store: BulkStore, state: EditionsState): BatchSink {
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

/** Dump bytes per edition line, for sizing: about 600 in the plain dump, 250 gzipped (a guess either way). */
const LINE_BYTES = { plain: 600, gzip: 250 };

/** About how many editions `file` holds. */
function expectedEditions(file: FileRun): number {
  return file.totalBytes / (file.gzip ? LINE_BYTES.gzip : LINE_BYTES.plain);
}

async function importEditions(
  store: Store,
  file: FileRun,
  options: DumpsOptions,
  removedBefore: { removed: number },
) {
  if (file.run.finished) {
    // Killed after the last batch but before the indexes were rebuilt: rebuild them now.
    await restoreIndexesTold(store, options.onFinishing);
    await refreshStatisticsTold(store, options.onFinishing);
    return summarise(file.path, file.run, 'already_finished', 0, 0);
  }
  const run = file.run;
  const started = performance.now();
  options.onStart?.({
    file: file.path,
    format: 'openlibrary',
    gzip: file.gzip,
    totalBytes: file.totalBytes,
    resumedFromRow: run.rowsDone,
  });
  // Every run of this file stamps entries with its first run's start, so a resumed import writes the
  // same rows as an uninterrupted one and the final sweep knows what this dump has not seen.
  const context = {
    coversBaseUrl: options.coversBaseUrl.replace(/\/+$/, ''),
    now: run.startedAt,
    keepWithoutIsbn: true,
  };
  const detected = { format: 'openlibrary' as const, delimiter: '\t' };
  const state: EditionsState = {
    reimport: await hasEntriesBefore(store.db, 'openlibrary', run.startedAt),
    startedAt: run.startedAt,
    removed: 0,
    identifiers: 'index',
  };
  // A first import into an empty catalog builds the secondary and full-text indexes once, at the end.
  if (run.rowsDone === 0 && (await catalogIsEmpty(store.db)))
    await deferCatalogIndexes(store.db, store.dialect);
  state.identifiers = await identifierRoute(store.db);
  if (store.dialect === 'postgres' && state.identifiers === 'unkeyed')
    state.written = new KeyFilter(expectedEditions(file));
  const reader = inWorker(options, file)
    ? workerRows({ file: file.path, gzip: file.gzip, detected, context, skip: run.rowsDone })
    : openRows(file.path, file.gzip, detected, context, run.rowsDone);
  const final = await importRows(store, reader, run, {
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    report: (state) => options.onProgress?.(progressOf(file, state, started)),
    sink: (trx, bulk) => joiningSink(trx, bulk, state),
  });
  if (final.finished) {
    await restoreIndexesTold(store, options.onFinishing);
    await refreshStatisticsTold(store, options.onFinishing);
  }
  removedBefore.removed += state.removed;
  return summarise(file.path, final, 'completed', run.rowsDone, performance.now() - started);
}

/**
 * Imports Open Library's monthly dumps: authors and works first, into keyed staging tables, then the
 * editions, each joined to its work (title, first publication year, grouping key) and its authors'
 * names. Each file resumes where a killed run stopped; a later month's dumps update what changed and
 * remove what the editions dump no longer holds.
 */
export async function importOpenLibraryDumps(
  store: Store,
  dumps: DumpFiles,
  options: DumpsOptions,
): Promise<DumpsSummary> {
  const files: ImportSummary[] = [];
  const removed = { removed: 0 };
  const restart = options.restart ?? false;
  if (dumps.authors) {
    const file = await openRun(store, dumps.authors, restart);
    files.push(
      await stageDump(store, file, 'authors', (trx, rows) => stageOlAuthors(trx, store, rows), options),
    );
  }
  if (dumps.works) {
    const file = await openRun(store, dumps.works, restart);
    files.push(await stageDump(store, file, 'works', (trx, rows) => stageOlWorks(trx, store, rows), options));
  }
  if (dumps.editions) {
    const file = await openRun(store, dumps.editions, restart);
    files.push(await importEditions(store, file, options, removed));
  }
  return { files, removed: removed.removed };
}
