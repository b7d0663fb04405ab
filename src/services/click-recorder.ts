import { setTimeout as delay } from 'node:timers/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/**
 * Records outbound clicks off the request path: `/go/` pushes into memory and redirects at once; a timer
 * writes the buffer as one multi-row insert per second. A graceful shutdown (`close`) loses nothing; a hard
 * kill loses at most one interval. Rows that fail to write are retried a bounded number of times.
 */
export interface Click {
  bookId: number;
  destinationId: number;
  sfid: number | null;
  country: string | null;
  referrerHost: string | null;
  at: Date;
  /** The active partner whose tag the redirect carried (`partner=`). */
  partnerId?: string | null;
  /** The placement word of the link (`src=qr`). */
  src?: string | null;
}

export interface ClickRecorderLogger {
  error(details: object, message: string): void;
}

export interface ClickRecorderOptions {
  flushIntervalMs?: number;
  /** Flush as soon as this many clicks wait, whatever the timer says. */
  maxBatch?: number;
  /** Consecutive failed flushes after which the oldest waiting batch is given up. */
  maxRetries?: number;
  /** Clicks kept while the database is unreachable; beyond it the oldest are dropped. */
  maxPending?: number;
  /** Pause between failed attempts while `close` drains the buffer. */
  retryDelayMs?: number;
  logger?: ClickRecorderLogger;
}

export interface ClickRecorderStats {
  recorded: number;
  flushed: number;
  pending: number;
  dropped: number;
  failedFlushes: number;
}

// Well under SQLite's and PostgreSQL's bound-parameter limits at 8 columns a row.
const ROWS_PER_STATEMENT = 500;

const consoleLogger: ClickRecorderLogger = {
  error: (details, message) => console.error(message, details),
};

export class ClickRecorder {
  private buffer: Click[] = [];
  private flushing: Promise<void> | null = null;
  private consecutiveFailures = 0;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly counts = { recorded: 0, flushed: 0, dropped: 0, failedFlushes: 0 };
  private readonly maxBatch: number;
  private readonly maxRetries: number;
  private readonly maxPending: number;
  private readonly retryDelayMs: number;
  private readonly logger: ClickRecorderLogger;

  constructor(
    private readonly db: Kysely<Database>,
    options: ClickRecorderOptions = {},
  ) {
    this.maxBatch = options.maxBatch ?? 200;
    this.maxRetries = options.maxRetries ?? 5;
    this.maxPending = options.maxPending ?? 100_000;
    this.retryDelayMs = options.retryDelayMs ?? 200;
    this.logger = options.logger ?? consoleLogger;
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    // The timer alone must not keep a finished process (a CLI command, a test) alive.
    this.timer.unref();
  }

  /** Never throws and never waits: a click must not slow or break a redirect. */
  record(click: Click): void {
    if (this.closed) {
      this.counts.dropped += 1;
      this.logger.error({ click }, 'click recorded after the recorder was closed; dropped');
      return;
    }
    this.counts.recorded += 1;
    this.buffer.push(click);
    this.trimOverflow();
    if (this.buffer.length >= this.maxBatch) void this.flush();
  }

  /**
   * Writes every click recorded before the call; one write runs at a time, so a call made while one is
   * running waits for it and then writes what came after. Resolves even when the write failed.
   */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => (this.buffer.length > 0 ? this.flush() : undefined));
    if (this.buffer.length === 0) return Promise.resolve();
    this.flushing = this.writeBatch().finally(() => {
      this.flushing = null;
      // A burst that filled the buffer while this write ran is written now, not a timer tick later.
      if (this.buffer.length >= this.maxBatch && this.consecutiveFailures === 0) void this.flush();
    });
    return this.flushing;
  }

  /** Stops the timer and writes everything still waiting (retrying up to the bound) before resolving. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    while (this.flushing || this.buffer.length > 0) {
      const failuresBefore = this.counts.failedFlushes;
      await this.flush();
      if (this.counts.failedFlushes > failuresBefore) await delay(this.retryDelayMs);
    }
  }

  stats(): ClickRecorderStats {
    return { ...this.counts, pending: this.buffer.length };
  }

  private async writeBatch(): Promise<void> {
    const batch = this.buffer;
    this.buffer = [];
    try {
      await insertClicks(this.db, batch);
      this.counts.flushed += batch.length;
      this.consecutiveFailures = 0;
    } catch (error) {
      this.counts.failedFlushes += 1;
      this.consecutiveFailures += 1;
      this.retryOrDrop(batch, error);
    }
  }

  private retryOrDrop(batch: Click[], error: unknown): void {
    if (this.consecutiveFailures > this.maxRetries) {
      this.counts.dropped += batch.length;
      this.consecutiveFailures = 0;
      this.logger.error(
        { err: error, dropped: batch.length },
        'click flush failed too often; clicks dropped',
      );
      return;
    }
    // Back at the front, so clicks are written in the order they happened.
    this.buffer = [...batch, ...this.buffer];
    this.trimOverflow();
    this.logger.error(
      { err: error, pending: this.buffer.length, attempt: this.consecutiveFailures },
      'click flush failed; will retry',
    );
  }

  private trimOverflow(): void {
    const excess = this.buffer.length - this.maxPending;
    if (excess <= 0) return;
    this.buffer.splice(0, excess);
    this.counts.dropped += excess;
  }
}

/** One transaction, multi-row inserts: all of a batch is written or none of it. */
export async function insertClicks(db: Kysely<Database>, clicks: readonly Click[]): Promise<void> {
  if (clicks.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < clicks.length; start += ROWS_PER_STATEMENT) {
      const rows = clicks.slice(start, start + ROWS_PER_STATEMENT).map((click) => ({
        book_id: click.bookId,
        destination_id: click.destinationId,
        sfid: click.sfid,
        country: click.country,
        referrer_host: click.referrerHost,
        partner_id: click.partnerId ?? null,
        src: click.src ?? null,
        created_at: click.at.toISOString(),
      }));
      await trx.insertInto('clicks').values(rows).execute();
    }
  });
}

export function createClickRecorder(db: Kysely<Database>, options: ClickRecorderOptions = {}): ClickRecorder {
  return new ClickRecorder(db, options);
}
