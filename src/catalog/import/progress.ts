import { basename } from 'node:path';
import type { FinishingEvent, ImportProgress, ImportStart } from './summary.js';

export interface TerminalProgressOptions {
  /** Defaults to process.stderr: progress is not output, so pipes of stdout stay clean. */
  stream?: NodeJS.WriteStream;
  quiet?: boolean;
  /** Seconds between plain lines when the stream is not a terminal (logs, CI). */
  plainIntervalSeconds?: number;
}

export interface TerminalProgress {
  onStart(start: ImportStart): void;
  onProgress(progress: ImportProgress): void;
  /** A line for each phase after the last row and for each of its steps, on a terminal too. */
  onFinishing(event: FinishingEvent): void;
  /** Writes the last report if the interval held it back and ends the updating line, so the summary starts on a fresh one. */
  done(): void;
}

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** 75 → "1m15s", 4000 → "1h06m". */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function describeFinishing(event: FinishingEvent): string {
  if (event.kind === 'phase')
    return `${event.title} (${event.steps} ${event.steps === 1 ? 'step' : 'steps'})`;
  return `  ${event.name}: ${seconds(event.elapsedMs)} (${event.done} of ${event.steps})`;
}

function describe(progress: ImportProgress): string {
  const percent = progress.totalBytes > 0 ? (100 * progress.bytesDone) / progress.totalBytes : 100;
  const eta = progress.etaSeconds != null ? `, ETA ${formatDuration(progress.etaSeconds)}` : '';
  return (
    `${basename(progress.file)}: ${count(progress.rowsDone)} rows (${percent.toFixed(1)}%), ` +
    `${count(progress.imported)} imported, ${count(progress.skipped)} skipped, ${count(progress.rowsPerSecond)} rows/s${eta}`
  );
}

/**
 * Progress for `booklink import`: one line rewritten in place on a terminal, a plain line every few
 * seconds otherwise, nothing when quiet. Pass its methods as `onStart`, `onProgress` and `onFinishing`.
 */
export function createTerminalProgress(options: TerminalProgressOptions = {}): TerminalProgress {
  const stream = options.stream ?? process.stderr;
  const tty = stream.isTTY === true;
  const interval = (tty ? 0.2 : (options.plainIntervalSeconds ?? 5)) * 1000;
  let lastWrite = 0;
  let lineOpen = false;
  /** The last report, if the interval held it back: written before anything else is. */
  let unwritten: ImportProgress | null = null;
  const write = (progress: ImportProgress) => {
    unwritten = null;
    if (tty) {
      stream.write(`\r\x1b[2K${describe(progress)}`);
      lineOpen = true;
    } else {
      stream.write(`${describe(progress)}\n`);
    }
  };
  const endLine = () => {
    if (unwritten) write(unwritten);
    if (lineOpen) stream.write('\n');
    lineOpen = false;
  };
  return {
    onStart(start) {
      if (options.quiet) return;
      const verb = start.resumedFromRow > 0 ? `Resuming at row ${count(start.resumedFromRow)}:` : 'Importing';
      stream.write(`${verb} ${start.file} as ${start.format}${start.gzip ? ' (gzip)' : ''}\n`);
      if (start.popularity) stream.write(`  ranking: ${start.popularity}\n`);
    },
    onProgress(progress) {
      if (options.quiet) return;
      const now = Date.now();
      if (now - lastWrite < interval) {
        unwritten = progress;
        return;
      }
      lastWrite = now;
      write(progress);
    },
    onFinishing(event) {
      if (options.quiet) return;
      endLine();
      stream.write(`${describeFinishing(event)}\n`);
    },
    done: endLine,
  };
}
