import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { nowIso, type Store } from '../../store/db.js';
import { catalogIsEmpty, deferCatalogIndexes, identifierRoute } from '../../store/deferred-indexes.js';
import type { ImportDb } from '../../store/import-runs.js';
import { KeyFilter } from '../../store/key-filter.js';
import { hasEntriesBefore, stageOlAuthors, stageOlWorks } from '../../store/openlibrary-staging.js';
import { importRows } from './batches.js';
import { refreshStatisticsTold, restoreIndexesTold } from './finishing.js';
import { type EditionsState, joiningSink } from './openlibrary-join.js';
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
import { ImportError } from './types.js';
import { workerRows, workerStagedLines } from './worker-rows.js';

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
