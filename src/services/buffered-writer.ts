import { appendFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { isDatabaseUnavailable } from '../store/errors.js';

/**
 * The one buffered writer behind clicks, the search log and API usage: rows are kept in memory off the
 * request path and a timer writes them (once a second by default) in one call of `write` per batch, as
 * soon as `maxBatch` rows wait, and everything on `close`.
 *
 * - **One write at a time**, in the order rows were recorded; rows that arrive meanwhile wait for the next.
 * - **Database unreachable** (down, restarting, the connection cut): nothing is given up; the rows wait
 *   and only the timer retries (no busy loop). At `close` it gives up after `closeAttempts`.
 * - **Back-pressure with a bound:** at most `maxPending` rows wait; beyond it the oldest are dropped
 *   (with `coalesce`, new keys are refused and the counters already held keep counting), counted in
 *   `dropped` and logged once per overflow.
 * - **Refused rows** (the database answers but will not take a batch, `maxRetries` times in a row): the
 *   batch is split in halves until the refused rows are alone; those are set aside (logged, and appended
 *   to `deadLetterFile` as JSON lines) and every other row is written.
 * - **Journal** (the click path): each row is also appended to a write-ahead journal and `record`
 *   resolves once it is on disk; each batch is written with the journal position it reaches (`through`),
 *   so that a replay of the journal after a crash skips it; the journal is deleted at `close` when
 *   everything reached the database.
 * - **Coalescing** (counters): rows with the same key are merged in memory, so memory grows by distinct
 *   keys, not by calls.
 */
export interface WriterLogger {
  error(details: object, message: string): void;
}

/** Writes rows in one transaction, all or none; `through`: the journal position of the last row. */
export type WriteRows<Row> = (rows: readonly Row[], through?: number) => Promise<void>;

/** The write-ahead journal a writer appends to (see `ClickJournal`). */
export interface WriterJournal<Row> {
  append(row: Row): { seq: number; durable: Promise<void> };
  checkpoint(seq: number): Promise<void>;
  close(remove: boolean): Promise<void>;
}

export interface Coalesce<Row> {
  key(row: Row): string;
  /** Adds `row` into `into` (same key). */
  merge(into: Row, row: Row): void;
}

export interface BufferedWriterOptions<Row> {
  /** What a row is, in log lines and as the field of a dead-letter line: `click`, `search`… */
  name: string;
  write: WriteRows<Row>;
  flushIntervalMs?: number;
  /** Write as soon as this many rows wait, whatever the timer says. */
  maxBatch?: number;
  /** Consecutive refused writes kept for a retry; after them a refused batch is split. */
  maxRetries?: number;
  /** Failed attempts `close` makes while the database is unreachable (default `maxRetries + 1`). */
  closeAttempts?: number;
  /** Rows kept while writes cannot keep up or the database is unreachable. */
  maxPending?: number;
  /** Pause between failed attempts while `close` drains the buffer. */
  retryDelayMs?: number;
  logger?: WriterLogger;
  journal?: WriterJournal<Row> | null;
  /** Where refused rows are appended (JSON lines `{"<name>": row, "error", "at"}`); unset: only logged. */
  deadLetterFile?: string | null;
  coalesce?: Coalesce<Row>;
  /** How much a row counts in the stats (a counter: its count); 1 by default. */
  weight?: (row: Row) => number;
}

export interface BufferedWriterStats {
  recorded: number;
  flushed: number;
  pending: number;
  /** Given up: beyond `maxPending`, recorded after `close`, or unwritable at `close`. */
  dropped: number;
  /** Refused by the database and set aside. */
  setAside: number;
  failedFlushes: number;
}

/** A row with its journal position (0 without a journal). */
export interface Entry<Row> {
  row: Row;
  seq: number;
}

const consoleLogger: WriterLogger = { error: (details, message) => console.error(message, details) };
const DURABLE = Promise.resolve();
const one = () => 1;

export class BufferedWriter<Row> {
  private list: Entry<Row>[] = [];
  private keyed = new Map<string, Entry<Row>>();
  private flushing: Promise<void> | null = null;
  private consecutiveFailures = 0;
  private closed = false;
  private overflowing = false;
  /** Rows given up at close because the database was unreachable (they stay journaled). */
  private abandoned = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly counts = { recorded: 0, flushed: 0, dropped: 0, setAside: 0, failedFlushes: 0 };
  private readonly name: string;
  private readonly write: WriteRows<Row>;
  private readonly maxBatch: number;
  private readonly maxRetries: number;
  private readonly closeAttempts: number;
  private readonly maxPending: number;
  private readonly retryDelayMs: number;
  private readonly logger: WriterLogger;
  private readonly journal: WriterJournal<Row> | null;
  private readonly deadLetterFile: string | null;
  private readonly coalesce: Coalesce<Row> | null;
  private readonly weight: (row: Row) => number;

  constructor(options: BufferedWriterOptions<Row>) {
    this.name = options.name;
    this.write = options.write;
    this.maxBatch = options.maxBatch ?? 500;
    this.maxRetries = options.maxRetries ?? 1;
    this.closeAttempts = options.closeAttempts ?? this.maxRetries + 1;
    this.maxPending = options.maxPending ?? 50_000;
    this.retryDelayMs = options.retryDelayMs ?? 200;
    this.logger = options.logger ?? consoleLogger;
    this.journal = options.journal ?? null;
    this.deadLetterFile = options.deadLetterFile ?? null;
    this.coalesce = options.coalesce ?? null;
    this.weight = options.weight ?? one;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    // The timer alone must not keep a finished process (a CLI command, a test) alive.
    this.timer.unref();
  }

  /**
   * Never throws and never fails. Resolves at once without a journal, and once the row is on disk with
   * one (a redirect waits for it).
   */
  record(row: Row): Promise<void> {
    if (this.closed) {
      this.counts.dropped += this.weight(row);
      this.logger.error({ [this.name]: row }, `${this.name} recorded after the writer was closed; dropped`);
      return DURABLE;
    }
    if (this.coalesce) {
      if (!this.merge({ row, seq: 0 })) return DURABLE;
    } else {
      let durable = DURABLE;
      let seq = 0;
      if (this.journal) ({ seq, durable } = this.journal.append(row));
      this.counts.recorded += this.weight(row);
      this.list.push({ row, seq });
      this.trimOverflow();
      this.flushIfFull();
      return durable;
    }
    this.counts.recorded += this.weight(row);
    this.flushIfFull();
    return DURABLE;
  }

  /**
   * Writes every row recorded before the call; a call made while a write runs waits for it and then
   * writes what came after. Resolves even when the write failed.
   */
  flush(): Promise<void> {
    // After the running write, flush again: it waits for a write the timer may have started meanwhile
    // (which took the rows this call must see written) or writes what is left.
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.size() === 0) return Promise.resolve();
    this.flushing = this.writeBatch().finally(() => {
      this.flushing = null;
      // A burst that filled the buffer while this write ran is written now, not a timer tick later.
      this.flushIfFull();
    });
    return this.flushing;
  }

  /**
   * Stops the timer and writes everything still waiting before resolving. Resolves true when every row
   * reached the database (the journal, if any, is then deleted; otherwise kept for the next start).
   */
  async close(): Promise<boolean> {
    this.closed = true;
    clearInterval(this.timer);
    while (this.flushing || this.size() > 0) {
      const failuresBefore = this.counts.failedFlushes;
      await this.flush();
      if (this.counts.failedFlushes > failuresBefore) await delay(this.retryDelayMs);
    }
    const complete = this.abandoned === 0;
    await this.journal?.close(complete);
    return complete;
  }

  stats(): BufferedWriterStats {
    // Read by every scrape of /metrics, once per field: no walk over a long backlog of plain rows.
    const pending = this.weight === one ? this.size() : this.weightOf(this.entries());
    return { ...this.counts, pending };
  }

  private size(): number {
    return this.coalesce ? this.keyed.size : this.list.length;
  }

  private entries(): Entry<Row>[] {
    return this.coalesce ? [...this.keyed.values()] : this.list;
  }

  private flushIfFull(): void {
    // While writes fail, only the timer retries: a full buffer must not turn an outage into a busy loop.
    if (this.size() >= this.maxBatch && this.consecutiveFailures === 0 && !this.flushing) void this.flush();
  }

  private take(): Entry<Row>[] {
    const batch = this.entries();
    this.list = [];
    this.keyed = new Map();
    return batch;
  }

  private async writeBatch(): Promise<void> {
    const batch = this.take();
    try {
      await this.write(
        batch.map((entry) => entry.row),
        this.through(batch),
      );
      this.counts.flushed += this.weightOf(batch);
      this.consecutiveFailures = 0;
      await this.checkpoint(batch);
    } catch (error) {
      this.counts.failedFlushes += 1;
      this.consecutiveFailures += 1;
      await this.retryOrSetAside(batch, error);
    }
  }

  private async retryOrSetAside(batch: Entry<Row>[], error: unknown): Promise<void> {
    const unavailable = isDatabaseUnavailable(error);
    const attempt = this.consecutiveFailures;
    const retry = unavailable ? !this.closed || attempt < this.closeAttempts : attempt <= this.maxRetries;
    if (retry) {
      this.requeue(batch);
      // Once per outage and then ever more rarely (attempts 1, 2, 4, 8…), not once a second for an hour.
      if ((attempt & (attempt - 1)) === 0) {
        this.logger.error(
          { err: error, pending: this.size(), attempt },
          `${this.name} write failed; will retry`,
        );
      }
      return;
    }
    this.consecutiveFailures = 0;
    if (unavailable) {
      // Closing with the database gone: the journal (if any) keeps these for the next start.
      const given = this.weightOf(batch);
      this.counts.dropped += given;
      this.abandoned += given;
      this.logger.error(
        { err: error, dropped: given, journaled: this.journal !== null },
        this.journal
          ? `database unreachable at close; ${this.name} rows stay in the journal for the next start`
          : `database unreachable at close; ${this.name} rows dropped`,
      );
      return;
    }
    const result = await writeSettingAside(batch, this.write, (entry, rowError) =>
      this.setAside(entry, rowError),
    );
    this.counts.flushed += this.weightOf(batch) - this.weightOf(result.remaining) - result.setAside;
    if (result.remaining.length > 0) this.requeue(result.remaining);
    else await this.checkpoint(batch);
  }

  private async setAside(entry: Entry<Row>, error: unknown): Promise<number> {
    const weight = this.weight(entry.row);
    this.counts.setAside += weight;
    this.logger.error(
      { err: error, [this.name]: entry.row },
      `${this.name} refused by the database; set aside`,
    );
    await appendDeadLetter(this.deadLetterFile, this.name, entry.row, error).catch((fileError: unknown) =>
      this.logger.error({ err: fileError }, 'dead-letter file write failed'),
    );
    return weight;
  }

  private weightOf(entries: readonly Entry<Row>[]): number {
    let total = 0;
    for (const entry of entries) total += this.weight(entry.row);
    return total;
  }

  private through(entries: readonly Entry<Row>[]): number | undefined {
    return this.journal ? entries.at(-1)?.seq : undefined;
  }

  private async checkpoint(entries: readonly Entry<Row>[]): Promise<void> {
    const last = entries.at(-1);
    if (this.journal && last) await this.journal.checkpoint(last.seq).catch(() => undefined);
  }

  /** Back at the front, so rows are written in the order they were recorded. */
  private requeue(entries: Entry<Row>[]): void {
    if (this.coalesce) {
      const arrived = this.keyed;
      this.keyed = new Map();
      for (const entry of [...entries, ...arrived.values()]) this.merge(entry, false);
      return;
    }
    this.list = [...entries, ...this.list];
    this.trimOverflow();
  }

  /** Adds a row to the keyed buffer; false when it was refused by the bound (and counted as dropped). */
  private merge(entry: Entry<Row>, fresh = true): boolean {
    const coalesce = this.coalesce as Coalesce<Row>;
    const key = coalesce.key(entry.row);
    const existing = this.keyed.get(key);
    if (existing) {
      coalesce.merge(existing.row, entry.row);
      return true;
    }
    if (this.keyed.size >= this.maxPending) {
      this.overflow(this.weight(entry.row), fresh ? 'new keys are refused' : 'rows put back are dropped');
      return false;
    }
    // A row put back is the writer's own; a fresh one may be the caller's, and counting merges into it.
    this.keyed.set(key, fresh ? { row: { ...entry.row }, seq: 0 } : entry);
    return true;
  }

  private trimOverflow(): void {
    const excess = this.list.length - this.maxPending;
    if (excess <= 0) {
      this.overflowing = false;
      return;
    }
    const dropped = this.list.splice(0, excess);
    this.overflow(this.weightOf(dropped), 'the oldest are dropped');
  }

  private overflow(weight: number, what: string): void {
    this.counts.dropped += weight;
    if (this.overflowing) return;
    this.overflowing = true;
    this.logger.error(
      { maxPending: this.maxPending },
      `${this.name} rows waiting beyond the bound (maxPending); ${what}`,
    );
  }
}

/**
 * Writes entries in order, splitting a refused chunk in halves until the refused rows are alone; those
 * go to `setAside` (which returns the weight it set aside). Stops at the first sign the database is
 * unreachable and returns what is left.
 */
export async function writeSettingAside<Row>(
  entries: readonly Entry<Row>[],
  write: WriteRows<Row>,
  setAside: (entry: Entry<Row>, error: unknown) => Promise<number>,
): Promise<{ remaining: Entry<Row>[]; setAside: number }> {
  const chunks: Entry<Row>[][] = [entries.slice()];
  let setAsideWeight = 0;
  for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
    try {
      await write(
        chunk.map((entry) => entry.row),
        chunk.at(-1)?.seq || undefined,
      );
    } catch (error) {
      if (isDatabaseUnavailable(error))
        return { remaining: [...chunk, ...chunks.flat()], setAside: setAsideWeight };
      const [only] = chunk;
      if (chunk.length === 1 && only) {
        setAsideWeight += await setAside(only, error);
        continue;
      }
      const middle = Math.ceil(chunk.length / 2);
      chunks.unshift(chunk.slice(0, middle), chunk.slice(middle));
    }
  }
  return { remaining: [], setAside: setAsideWeight };
}

/** Appends one refused row to a dead-letter file (JSON lines); no file: nothing. */
export async function appendDeadLetter(
  file: string | null,
  name: string,
  row: unknown,
  error: unknown,
): Promise<void> {
  if (!file) return;
  const reason = error instanceof Error ? error.message : String(error);
  await appendFile(file, `${JSON.stringify({ [name]: row, error: reason, at: new Date().toISOString() })}\n`);
}
