import type { Db } from '../../store/schema.js';
import { insertSearches, type LoggedSearch, type NewSearch } from '../../store/search/log.js';
import { BufferedWriter, type WriterLogger } from '../buffered-writer.js';

export type SearchLogLogger = WriterLogger;

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

/**
 * The search log (`searches`) written off the request path with the buffered writer, for the API,
 * whose answer carries no search id: `record` keeps the row in memory with the time it was asked, and
 * the writer stores the buffer once a second as multi-row inserts in one transaction. A graceful
 * shutdown (`close`) writes everything; a hard kill loses at most one interval. A batch the database
 * refuses twice is split until the refused rows are alone, and those are set aside (logged).
 */
export class SearchLogRecorder {
  private readonly writer: BufferedWriter<LoggedSearch>;

  constructor(db: Db, options: SearchLogOptions = {}) {
    this.writer = new BufferedWriter<LoggedSearch>({
      name: 'search',
      write: (rows) => insertSearches(db, rows),
      flushIntervalMs: options.flushIntervalMs,
      maxBatch: options.maxBatch ?? 500,
      maxRetries: 1,
      closeAttempts: options.closeAttempts ?? 5,
      maxPending: options.maxPending ?? 50_000,
      retryDelayMs: options.retryDelayMs,
      logger: options.logger,
    });
  }

  /** Never throws and never waits. */
  record(search: NewSearch, at = new Date()): void {
    void this.writer.record({ ...search, created_at: at.toISOString() });
  }

  /** Writes every search recorded before the call. Resolves even when the write failed. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Stops the timer and writes what is left, retrying a few times while the database is unreachable. */
  async close(): Promise<void> {
    await this.writer.close();
  }

  stats(): SearchLogStats {
    const { recorded, flushed, pending, dropped, setAside, failedFlushes } = this.writer.stats();
    return { recorded, flushed, pending, dropped: dropped + setAside, failedFlushes };
  }
}
