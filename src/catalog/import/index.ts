import { stat } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { nowIso, type Store } from '../../store/db.js';
import { importRows } from './batches.js';
import { describePopularity } from './csv.js';
import { detectFormat } from './detect.js';
import { refreshStatisticsTold } from './finishing.js';
import { openRows } from './rows.js';
import { fileKey, freshRun, loadRun, type RunState } from './runs.js';
import { isGzip, peekText } from './source.js';
import { type ImportReports, type ImportSummary, summarise } from './summary.js';
import { ImportError, type ImportFormat } from './types.js';
import { workerRows } from './worker-rows.js';

export {
  classifyDumps,
  type DumpFiles,
  type DumpsSummary,
  importOpenLibraryDumps,
} from './openlibrary-dumps.js';
export { createTerminalProgress } from './progress.js';
export {
  type FinishingEvent,
  formatDumpsSummary,
  formatImportSummary,
  type ImportProgress,
  type ImportStart,
  type ImportSummary,
} from './summary.js';
export { IMPORT_FORMATS, ImportError, type ImportFormat } from './types.js';

export interface ImportOptions extends ImportReports {
  /** Skips detection; without it the format comes from the content, then the extension. */
  format?: ImportFormat;
  /** Imports a file again from the first row even if an earlier run finished or stopped half-way. */
  restart?: boolean;
  /** OPENLIBRARY_COVERS_URL, for cover URLs of Open Library editions. */
  coversBaseUrl: string;
  /** Rows read per transaction (default 20,000). */
  batchSize?: number;
  /** Parse in a worker thread, overlapping parsing with writing (default: files of 1 MB or more, when a core is free). */
  parseInWorker?: boolean;
}

// Larger transactions write each hot index page to the WAL once per batch instead of ten times:
// 2,000-row batches ran at half the speed. A killed import redoes at most one batch (under a second).
const DEFAULT_BATCH_SIZE = 20_000;

// A worker thread takes some tens of milliseconds to start: not worth it for a small file.
const WORKER_MIN_BYTES = 1 << 20;

/**
 * Parsing in a worker overlaps with writing only when a core is free for it; on a saturated host the
 * hand-offs between threads cost more than they save (measured: 12,000 against 20,000 rows/s at load 9
 * on 2 cores). Both ways give the same rows and counts.
 */
function parseInWorkerByDefault(fileBytes: number): boolean {
  const [lastMinute = 0] = loadavg();
  return fileBytes >= WORKER_MIN_BYTES && lastMinute < availableParallelism() - 1;
}

/** The header of a CSV from its first bytes (its first record). */
function csvHeader(head: string, delimiter: string): string[] {
  const [header = []] = parseCsv(head.split(/\r?\n/, 1)[0] ?? '', {
    bom: true,
    delimiter,
    relax_quotes: true,
  }) as string[][];
  return header;
}

async function fileStats(path: string) {
  const stats = await stat(path).catch(() => null);
  if (!stats?.isFile()) throw new ImportError('file_not_found', `${path}: no such file`);
  return stats;
}

/**
 * Imports a catalog dump into `catalog_entries`, streaming it in batches. Each batch and the file's
 * progress in `import_runs` commit in one transaction, so a killed import resumes at the first row
 * whose batch did not commit.
 */
export async function importCatalogFile(
  store: Store,
  file: string,
  options: ImportOptions,
): Promise<ImportSummary> {
  const path = resolve(file);
  const stats = await fileStats(path);
  const gzip = await isGzip(path);
  const head = await peekText(path, gzip).catch((error: unknown) => {
    throw new ImportError('unreadable', `${path}: cannot read (${String(error)})`);
  });
  const { format, delimiter } = detectFormat(path, head, options.format);
  const key = fileKey(path, stats);
  const previous = options.restart ? null : await loadRun(store.db, key);
  if (previous?.finished) {
    // Killed after its last batch, perhaps before the search statistics were refreshed.
    await refreshStatisticsTold(store, options.onFinishing);
    return summarise(path, previous, 'already_finished', 0, 0);
  }
  if (previous && previous.format !== format) {
    throw new ImportError(
      'format_mismatch',
      `${path} was partly imported as ${previous.format}; pass --restart to import it as ${format}`,
    );
  }
  const run = previous ?? freshRun(key, format, nowIso());
  const started = performance.now();
  const popularity = format === 'csv' ? describePopularity(csvHeader(head, delimiter)) : undefined;
  options.onStart?.({
    file: path,
    format,
    gzip,
    totalBytes: stats.size,
    resumedFromRow: run.rowsDone,
    popularity,
  });
  const context = { coversBaseUrl: options.coversBaseUrl.replace(/\/+$/, ''), now: nowIso() };
  const detected = { format, delimiter };
  const reader =
    (options.parseInWorker ?? parseInWorkerByDefault(stats.size))
      ? workerRows({ file: path, gzip, detected, context, skip: run.rowsDone })
      : openRows(path, gzip, detected, context, run.rowsDone);
  const final = await importRows(store, reader, run, {
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    report: (state) => options.onProgress?.(progressOf(path, state, run, stats.size, started)),
  });
  if (final.finished) await refreshStatisticsTold(store, options.onFinishing);
  return summarise(path, final, 'completed', run.rowsDone, performance.now() - started);
}

function progressOf(file: string, run: RunState, first: RunState, totalBytes: number, started: number) {
  const elapsedMs = performance.now() - started;
  const rowsThisRun = run.rowsDone - first.rowsDone;
  const bytesPerMs = elapsedMs > 0 ? (run.bytesDone - first.bytesDone) / elapsedMs : 0;
  return {
    file,
    format: run.format,
    rowsDone: run.rowsDone,
    imported: run.imported,
    skipped: Object.values(run.skipped).reduce((sum, n) => sum + n, 0),
    bytesDone: run.bytesDone,
    totalBytes,
    rowsPerSecond: elapsedMs > 0 ? (rowsThisRun * 1000) / elapsedMs : 0,
    elapsedMs,
    etaSeconds: bytesPerMs > 0 ? Math.max(0, totalBytes - run.bytesDone) / bytesPerMs / 1000 : null,
  };
}
