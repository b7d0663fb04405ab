import { basename } from 'node:path';
import type { RunState } from './runs.js';
import type { ImportFormat } from './types.js';

export interface ImportStart {
  file: string;
  format: ImportFormat;
  gzip: boolean;
  totalBytes: number;
  /** Rows an earlier, interrupted run already imported; 0 for a fresh import. */
  resumedFromRow: number;
  /** A CSV's source of popularity, said to the user (`describePopularity`); absent for other formats. */
  popularity?: string;
}

/** Reported after every committed batch. Counts include earlier runs of the same file. */
export interface ImportProgress {
  file: string;
  format: ImportFormat;
  rowsDone: number;
  imported: number;
  skipped: number;
  bytesDone: number;
  totalBytes: number;
  /** Rate of this run only. */
  rowsPerSecond: number;
  elapsedMs: number;
  /** Seconds left at this run's rate, from the bytes read; null before the first batch. */
  etaSeconds?: number | null;
}

/**
 * The work after a file's last row, minutes long at millions of entries (a first import's deferred
 * indexes, the search statistics): each phase as it begins, each of its steps as it ends.
 */
export type FinishingEvent =
  | { kind: 'phase'; title: string; steps: number }
  | { kind: 'step'; name: string; done: number; steps: number; elapsedMs: number };

/** What an import tells as it goes (`booklink import` passes a terminal progress's methods). */
export interface ImportReports {
  onStart?: (start: ImportStart) => void;
  /** Called after each committed batch; throwing stops the import, which a re-run then resumes. */
  onProgress?: (progress: ImportProgress) => void;
  /** Told about the work after the last row (a first import's deferred indexes, the search statistics). */
  onFinishing?: (event: FinishingEvent) => void;
}

export interface ImportSummary {
  file: string;
  format: ImportFormat;
  /** `already_finished`: an earlier run completed this exact file; nothing was read (see `restart`). */
  status: 'completed' | 'already_finished';
  /** Data rows read, over every run of this file (CSV header excluded). */
  rowsRead: number;
  imported: number;
  /** Skip reason → rows, over every run of this file. */
  skipped: Record<string, number>;
  resumedFromRow: number;
  rowsThisRun: number;
  elapsedMs: number;
  rowsPerSecond: number;
  /** When the run record was last written (the finish time of an already finished file). */
  finishedAt: string | null;
}

export function summarise(
  file: string,
  run: RunState,
  status: ImportSummary['status'],
  resumedFromRow: number,
  elapsedMs: number,
): ImportSummary {
  const rowsThisRun = status === 'completed' ? run.rowsDone - resumedFromRow : 0;
  return {
    file,
    format: run.format,
    status,
    rowsRead: run.rowsDone,
    imported: run.imported,
    skipped: run.skipped,
    resumedFromRow,
    rowsThisRun,
    elapsedMs,
    rowsPerSecond: elapsedMs > 0 ? (rowsThisRun * 1000) / elapsedMs : 0,
    finishedAt: status === 'already_finished' ? run.updatedAt : null,
  };
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** The end-of-import report printed by `booklink import`. */
export function formatImportSummary(summary: ImportSummary): string {
  const name = basename(summary.file);
  const skippedTotal = Object.values(summary.skipped).reduce((sum, n) => sum + n, 0);
  const totals = `${count(summary.rowsRead)} rows read, ${count(summary.imported)} imported, ${count(skippedTotal)} skipped`;
  if (summary.status === 'already_finished') {
    return [
      `${name} was already imported${summary.finishedAt ? ` (${summary.finishedAt})` : ''}: ${totals}.`,
      'Nothing to do; pass --restart to import it again.',
    ].join('\n');
  }
  const lines = [`Imported ${name} (${summary.format}): ${totals}.`];
  if (summary.resumedFromRow > 0) {
    lines.push(
      `  resumed at row ${count(summary.resumedFromRow)}; ${count(summary.rowsThisRun)} rows this run`,
    );
  }
  const reasons = Object.entries(summary.skipped).sort(([, a], [, b]) => b - a);
  for (const [reason, n] of reasons) lines.push(`  skipped ${reason}: ${count(n)}`);
  const seconds = summary.elapsedMs / 1000;
  lines.push(`  elapsed ${seconds.toFixed(seconds < 10 ? 2 : 1)} s, ${count(summary.rowsPerSecond)} rows/s`);
  return lines.join('\n');
}

/** The end report of a dumps import: each file, then what the re-import removed. */
export function formatDumpsSummary(summary: { files: ImportSummary[]; removed: number }): string {
  const lines = summary.files.map(formatImportSummary);
  lines.push(`Removed ${count(summary.removed)} entries no longer in the editions dump.`);
  return lines.join('\n');
}
