import { appendFile, rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { type ClickRecord, forgetJournalMark, insertClicks, journalMark } from '../store/click-writes.js';
import { isDatabaseUnavailable } from '../store/errors.js';
import type { Db } from '../store/schema.js';
import { ClickJournal, claimOrphanJournals, type JournalSync, readJournal } from './click-journal.js';

/**
 * Records outbound clicks off the request path: `/go/` pushes into memory and a timer writes the buffer
 * as one multi-row insert per second. With a journal (`CLICK_WAL_DIR`), each click is also appended to
 * a local write-ahead file and `record` resolves once it is on disk, so `/go/` redirects only after its
 * click would survive a kill -9; the journal is replayed at the next start. Without one, a graceful
 * shutdown (`close`) loses nothing and a hard kill loses at most one interval.
 *
 * A batch that fails is retried a bounded number of times; then, if the database answers but refuses
 * the batch, the batch is split until the rows it refuses are isolated: those are set aside (logged, and
 * appended to the dead-letter file) and every other row is written. While the database is unreachable
 * nothing is given up: the clicks wait (up to `maxPending`) until it is back.
 */
export type Click = ClickRecord;

export interface ClickRecorderLogger {
  error(details: object, message: string): void;
}

export interface ClickRecorderOptions {
  flushIntervalMs?: number;
  /** Flush as soon as this many clicks wait, whatever the timer says. */
  maxBatch?: number;
  /** Consecutive failed flushes after which a refused batch is split and its bad rows set aside. */
  maxRetries?: number;
  /** Clicks kept while the database is unreachable; beyond it the oldest are dropped. */
  maxPending?: number;
  /** Pause between failed attempts while `close` drains the buffer. */
  retryDelayMs?: number;
  logger?: ClickRecorderLogger;
  /** The write-ahead journal of this process (see `openClickJournal`); null keeps clicks in memory only. */
  journal?: ClickJournal<Click> | null;
  /** Where rows the database refuses are appended (JSON lines); unset: only logged. */
  deadLetterFile?: string | null;
}

export interface ClickRecorderStats {
  recorded: number;
  flushed: number;
  pending: number;
  dropped: number;
  failedFlushes: number;
}

interface Entry {
  click: Click;
  /** Position in the journal (0 without one). */
  seq: number;
}

const consoleLogger: ClickRecorderLogger = {
  error: (details, message) => console.error(message, details),
};

const DURABLE = Promise.resolve();

export class ClickRecorder {
  private buffer: Entry[] = [];
  private flushing: Promise<void> | null = null;
  private consecutiveFailures = 0;
  private closed = false;
  /** Clicks given up from memory at close because the database was unreachable (they stay journaled). */
  private abandoned = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly counts = { recorded: 0, flushed: 0, dropped: 0, failedFlushes: 0 };
  private readonly maxBatch: number;
  private readonly maxRetries: number;
  private readonly maxPending: number;
  private readonly retryDelayMs: number;
  private readonly logger: ClickRecorderLogger;
  private readonly journal: ClickJournal<Click> | null;
  private readonly deadLetterFile: string | null;

  constructor(
    private readonly db: Db,
    options: ClickRecorderOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 200;
    this.maxRetries = options.maxRetries ?? 5;
    this.maxPending = options.maxPending ?? 100_000;
    this.retryDelayMs = options.retryDelayMs ?? 200;
    this.logger = options.logger ?? consoleLogger;
    this.journal = options.journal ?? null;
    this.deadLetterFile = options.deadLetterFile ?? null;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    // The timer alone must not keep a finished process (a CLI command, a test) alive.
    this.timer.unref();
  }

  /**
   * Never throws and never fails: a click must not break a redirect. The promise resolves at once
   * without a journal, and once the click is on disk with one (the redirect should wait for it).
   */
  record(click: Click): Promise<void> {
    if (this.closed) {
      this.counts.dropped += 1;
      this.logger.error({ click }, 'click recorded after the recorder was closed; dropped');
      return DURABLE;
    }
    this.counts.recorded += 1;
    let durable = DURABLE;
    let seq = 0;
    if (this.journal) ({ seq, durable } = this.journal.append(click));
    this.buffer.push({ click, seq });
    this.trimOverflow();
    // While writes fail, only the timer retries: a full buffer must not turn an outage into a busy loop.
    if (this.buffer.length >= this.maxBatch && this.consecutiveFailures === 0) void this.flush();
    return durable;
  }

  /**
   * Writes every click recorded before the call; one write runs at a time, so a call made while one is
   * running waits for it and then writes what came after. Resolves even when the write failed.
   */
  flush(): Promise<void> {
    // After the running write, flush again: it waits for a write the timer may have started meanwhile
    // (which took the clicks this call must see written) or writes what is left.
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.buffer.length === 0) return Promise.resolve();
    this.flushing = this.writeBatch().finally(() => {
      this.flushing = null;
      // A burst that filled the buffer while this write ran is written now, not a timer tick later.
      if (this.buffer.length >= this.maxBatch && this.consecutiveFailures === 0) void this.flush();
    });
    return this.flushing;
  }

  /**
   * Stops the timer and writes everything still waiting (retrying up to the bound) before resolving.
   * The journal is deleted when everything reached the database, and kept for the next start otherwise.
   */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    while (this.flushing || this.buffer.length > 0) {
      const failuresBefore = this.counts.failedFlushes;
      await this.flush();
      if (this.counts.failedFlushes > failuresBefore) await delay(this.retryDelayMs);
    }
    if (!this.journal) return;
    const complete = this.abandoned === 0;
    await this.journal.close(complete);
    if (complete) await forgetJournalMark(this.db, this.journal.id).catch(() => undefined);
  }

  stats(): ClickRecorderStats {
    return { ...this.counts, pending: this.buffer.length };
  }

  private async writeBatch(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    try {
      await insertClicks(
        this.db,
        batch.map((entry) => entry.click),
        this.markOf(batch),
      );
      this.counts.flushed += batch.length;
      this.consecutiveFailures = 0;
      await this.checkpoint(batch);
    } catch (error) {
      this.counts.failedFlushes += 1;
      this.consecutiveFailures += 1;
      await this.retryOrSetAside(batch, error);
    }
  }

  private async retryOrSetAside(batch: Entry[], error: unknown): Promise<void> {
    const unavailable = isDatabaseUnavailable(error);
    if (this.consecutiveFailures <= this.maxRetries || (unavailable && !this.closed)) {
      this.requeue(batch);
      // Once per outage and then ever more rarely (attempts 1, 2, 4, 8…), not once a second for an hour.
      const attempt = this.consecutiveFailures;
      if ((attempt & (attempt - 1)) === 0) {
        this.logger.error(
          { err: error, pending: this.buffer.length, attempt },
          'click flush failed; will retry',
        );
      }
      return;
    }
    this.consecutiveFailures = 0;
    if (unavailable) {
      // Closing with the database gone: the journal (if any) keeps these for the next start.
      this.counts.dropped += batch.length;
      this.abandoned += batch.length;
      this.logger.error(
        { err: error, dropped: batch.length, journaled: this.journal !== null },
        this.journal
          ? 'database unreachable at close; clicks stay in the journal for the next start'
          : 'database unreachable at close; clicks dropped',
      );
      return;
    }
    const result = await writeSettingAside(this.db, batch, this.journal?.id ?? null, (entry, rowError) =>
      this.setAside(entry, rowError),
    );
    this.counts.flushed += result.written;
    if (result.remaining.length > 0) this.requeue(result.remaining);
    else await this.checkpoint(batch);
  }

  private async setAside(entry: Entry, error: unknown): Promise<void> {
    this.counts.dropped += 1;
    this.logger.error({ err: error, click: entry.click }, 'click refused by the database; set aside');
    await deadLetter(this.deadLetterFile, entry.click, error).catch((fileError: unknown) =>
      this.logger.error({ err: fileError }, 'dead-letter file write failed'),
    );
  }

  private markOf(entries: readonly Entry[]) {
    const last = entries.at(-1);
    return this.journal && last ? { journal: this.journal.id, seq: last.seq } : undefined;
  }

  private async checkpoint(entries: readonly Entry[]): Promise<void> {
    const last = entries.at(-1);
    if (this.journal && last) await this.journal.checkpoint(last.seq).catch(() => undefined);
  }

  /** Back at the front, so clicks are written in the order they happened. */
  private requeue(entries: Entry[]): void {
    this.buffer = [...entries, ...this.buffer];
    this.trimOverflow();
  }

  private trimOverflow(): void {
    const excess = this.buffer.length - this.maxPending;
    if (excess <= 0) return;
    this.buffer.splice(0, excess);
    this.counts.dropped += excess;
  }
}

/**
 * Writes entries in order, splitting a refused chunk in halves until the refused rows are alone; those
 * go to `setAside`. Stops at the first sign the database is unreachable and returns what is left.
 */
async function writeSettingAside(
  db: Db,
  entries: readonly Entry[],
  journal: string | null,
  setAside: (entry: Entry, error: unknown) => Promise<void>,
): Promise<{ written: number; remaining: Entry[] }> {
  const chunks: Entry[][] = [entries.slice()];
  let written = 0;
  for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
    const last = chunk.at(-1);
    const mark = journal && last ? { journal, seq: last.seq } : undefined;
    try {
      await insertClicks(
        db,
        chunk.map((entry) => entry.click),
        mark,
      );
      written += chunk.length;
    } catch (error) {
      if (isDatabaseUnavailable(error)) return { written, remaining: [...chunk, ...chunks.flat()] };
      const [only] = chunk;
      if (chunk.length === 1 && only) {
        await setAside(only, error);
        continue;
      }
      const middle = Math.ceil(chunk.length / 2);
      chunks.unshift(chunk.slice(0, middle), chunk.slice(middle));
    }
  }
  return { written, remaining: [] };
}

async function deadLetter(file: string | null, click: Click, error: unknown): Promise<void> {
  if (!file) return;
  const reason = error instanceof Error ? error.message : String(error);
  await appendFile(file, `${JSON.stringify({ click, error: reason, at: new Date().toISOString() })}\n`);
}

/** A click as read back from a journal line (dates were written as ISO strings). */
function journaledClick(record: unknown): Click | null {
  if (typeof record !== 'object' || record === null) return null;
  const fields = record as Record<string, unknown>;
  const at = new Date(String(fields.at));
  if (Number.isNaN(at.getTime())) return null;
  return { ...(fields as unknown as Click), at };
}

export interface JournalSetup {
  /** The directory holding this database's journals (under `CLICK_WAL_DIR`). */
  dir: string;
  deadLetterFile: string | null;
  logger?: ClickRecorderLogger;
}

/** The dead-letter file in `CLICK_WAL_DIR`. */
export const deadLetterPath = (dir: string) => `${dir}/dead-letter.jsonl`;

/**
 * Writes the clicks of journals left by processes that died (kill -9, a crash, a power cut) and deletes
 * them. Idempotent: clicks the dead process had already written are skipped by the journal's mark, and
 * a crash during the replay leaves a journal the next start replays from where this one stopped.
 */
export async function replayClickJournals(
  db: Db,
  { dir, deadLetterFile, logger = consoleLogger }: JournalSetup,
): Promise<{ journals: number; replayed: number }> {
  let replayed = 0;
  const orphans = await claimOrphanJournals(dir);
  for (const orphan of orphans) {
    const mark = await journalMark(db, orphan.id);
    const entries: Entry[] = [];
    for (const { seq, record } of await readJournal(orphan.path)) {
      const click = journaledClick(record);
      if (seq > mark && click) entries.push({ click, seq });
    }
    for (let start = 0; start < entries.length; start += 1000) {
      const result = await writeSettingAside(
        db,
        entries.slice(start, start + 1000),
        orphan.id,
        async (entry, error) => {
          logger.error(
            { err: error, click: entry.click },
            'journaled click refused by the database; set aside',
          );
          await deadLetter(deadLetterFile, entry.click, error);
        },
      );
      if (result.remaining.length > 0)
        throw new Error('the database became unreachable while replaying clicks');
      replayed += result.written;
    }
    await rm(orphan.path, { recursive: true, force: true });
    await forgetJournalMark(db, orphan.id);
  }
  return { journals: orphans.length, replayed };
}

/** This process's journal under `dir`, for `ClickRecorderOptions.journal`. */
export function openClickJournal(
  dir: string,
  sync: JournalSync = 'interval',
  logger: ClickRecorderLogger = consoleLogger,
) {
  return ClickJournal.open<Click>(dir, (click) => click, logger, sync);
}

export function createClickRecorder(db: Db, options: ClickRecorderOptions = {}): ClickRecorder {
  return new ClickRecorder(db, options);
}
