import { setTimeout as delay } from 'node:timers/promises';
import { isDatabaseUnavailable } from '../../store/errors.js';
import type { Db } from '../../store/schema.js';
import { insertSearches, type LoggedSearch, type NewSearch } from '../../store/search/log.js';

export interface SearchLogLogger {
  error(details: object, message: string): void;
}

export interface SearchLogOptions {
  flushIntervalMs?: number;
  /** Write as soon as this many searches wait, whatever the timer says. */
  maxBatch?: number;
  /** Searches kept while the database is unreachable; beyond it the oldest are dropped. */
  maxPending?: number;
  /** Attempts `close` makes to write what is left while the database is unreachable. */
  closeAttempts?: number;
  /** Pause between those attempts. */
  retryDelayMs?: number;
  logger?: SearchLogLogger;
}

export interface SearchLogStats {
  recorded: number;
  flushed: number;
  pending: number;
  /** Given up: beyond `maxPending` during an outage, refused by the database, or unwritable at close. */
  dropped: number;
  failedFlushes: number;
}

const consoleLogger: SearchLogLogger = { error: (details, message) => console.error(message, details) };

/**
 * The search log (`searches`) written off the request path, for the API, whose answer carries no
 * search id: `record` keeps the row in memory with the time it was asked, and a timer writes the
 * buffer once a second as multi-row inserts in one transaction. A graceful shutdown (`close`) writes
 * everything; a hard kill loses at most one interval. While the database is unreachable rows wait
 * (up to `maxPending`) and only the timer retries; a batch the database refuses twice is split until
 * the refused rows are alone, and those are set aside (logged) so the others are written.
 */
export class SearchLogRecorder {
  private buffer: LoggedSearch[] = [];
  private flushing: Promise<void> | null = null;
  private consecutiveFailures = 0;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly counts = { recorded: 0, flushed: 0, dropped: 0, failedFlushes: 0 };
  private readonly maxBatch: number;
  private readonly maxPending: number;
  private readonly closeAttempts: number;
  private readonly retryDelayMs: number;
  private readonly logger: SearchLogLogger;

  constructor(
    private readonly db: Db,
    options: SearchLogOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 500;
    this.maxPending = options.maxPending ?? 50_000;
    this.closeAttempts = options.closeAttempts ?? 5;
    this.retryDelayMs = options.retryDelayMs ?? 200;
    this.logger = options.logger ?? consoleLogger;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    // The timer alone must not keep a finished process (a CLI command, a test) alive.
    this.timer.unref();
  }

  /** Never throws and never waits. */
  record(search: NewSearch, at = new Date()): void {
    if (this.closed) {
      this.counts.dropped += 1;
      this.logger.error({ query: search.query }, 'search logged after the search log was closed; dropped');
      return;
    }
    this.counts.recorded += 1;
    this.buffer.push({ ...search, created_at: at.toISOString() });
    this.trimOverflow();
    // While writes fail, only the timer retries: a full buffer must not turn an outage into a busy loop.
    if (this.buffer.length >= this.maxBatch && this.consecutiveFailures === 0) void this.flush();
  }

  /**
   * Writes every search recorded before the call; one write runs at a time, so a call made while one
   * runs waits for it and then writes what came after. Resolves even when the write failed.
   */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.buffer.length === 0) return Promise.resolve();
    this.flushing = this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is left, retrying a few times while the database is unreachable. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    for (let attempt = 1; this.flushing || this.buffer.length > 0; attempt++) {
      const failures = this.counts.failedFlushes;
      await this.flush();
      if (this.counts.failedFlushes === failures) continue;
      if (attempt >= this.closeAttempts) {
        this.counts.dropped += this.buffer.length;
        this.logger.error(
          { dropped: this.buffer.length },
          'database unreachable at close; logged searches dropped',
        );
        this.buffer = [];
        return;
      }
      await delay(this.retryDelayMs);
    }
  }

  stats(): SearchLogStats {
    return { ...this.counts, pending: this.buffer.length };
  }

  private async write(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    try {
      await insertSearches(this.db, batch);
      this.counts.flushed += batch.length;
      this.consecutiveFailures = 0;
    } catch (error) {
      this.counts.failedFlushes += 1;
      this.consecutiveFailures += 1;
      const attempt = this.consecutiveFailures;
      if (isDatabaseUnavailable(error) || attempt < 2) {
        this.requeue(batch);
        // Once per outage and then ever more rarely (attempts 1, 2, 4, 8…).
        if ((attempt & (attempt - 1)) === 0) {
          this.logger.error(
            { err: error, pending: this.buffer.length, attempt },
            'search log flush failed; will retry',
          );
        }
        return;
      }
      this.consecutiveFailures = 0;
      this.requeue(await this.writeSettingAside(batch));
    }
  }

  /**
   * Writes rows in halves until the ones the database refuses are alone; those are set aside (logged).
   * Returns what is left unwritten if the database became unreachable on the way.
   */
  private async writeSettingAside(rows: LoggedSearch[]): Promise<LoggedSearch[]> {
    const chunks = [rows];
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      try {
        await insertSearches(this.db, chunk);
        this.counts.flushed += chunk.length;
      } catch (error) {
        if (isDatabaseUnavailable(error)) return [...chunk, ...chunks.flat()];
        const [only] = chunk;
        if (chunk.length === 1 && only) {
          this.counts.dropped += 1;
          this.logger.error({ err: error, search: only }, 'logged search refused by the database; set aside');
          continue;
        }
        const middle = Math.ceil(chunk.length / 2);
        chunks.unshift(chunk.slice(0, middle), chunk.slice(middle));
      }
    }
    return [];
  }

  /** Back at the front, so searches are written in the order they were asked. */
  private requeue(rows: LoggedSearch[]): void {
    if (rows.length === 0) return;
    this.buffer = [...rows, ...this.buffer];
    this.trimOverflow();
  }

  private trimOverflow(): void {
    const excess = this.buffer.length - this.maxPending;
    if (excess <= 0) return;
    this.buffer.splice(0, excess);
    this.counts.dropped += excess;
  }
}
