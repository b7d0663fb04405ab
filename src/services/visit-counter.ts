import type { Audience } from '../domain/audience.js';
import { addBookVisits } from '../store/affiliate-tags.js';
import { addPageVisits, type VisitCount } from '../store/partner-analytics.js';
import type { Db } from '../store/schema.js';

const DAY_MS = 86_400_000;

export interface VisitCounterLogger {
  error(details: object, message: string): void;
}

/**
 * Counts book-page and short-link visits per day, audience and placement (`src`) in memory and adds
 * them to `page_visits` every few seconds: a page served from the cache must not wait on a write.
 * A failed write keeps its counts for the next try; `close` writes what is left.
 */
export class VisitCounter {
  private counts = new Map<string, VisitCount>();
  /** Readers' visits per book and day (`day|bookId`), for each book's click-through. */
  private books = new Map<string, { day: string; bookId: number; visits: number }>();
  private day = { start: Number.NaN, text: '' };
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    flushIntervalMs = 5000,
    private readonly logger: VisitCounterLogger = { error: (d, m) => console.error(m, d) },
  ) {
    this.timer = setInterval(() => void this.flush(), flushIntervalMs);
    this.timer.unref();
  }

  count(audience: Audience, src: string | null, at = Date.now()): void {
    const day = this.dayOf(at);
    const key = `${day}|${audience}|${src ?? ''}`;
    const entry = this.counts.get(key);
    if (entry) entry.visits += 1;
    // Bounded: the keys are a day, three audiences and validated placement words.
    else if (this.counts.size < 10_000) this.counts.set(key, { day, audience, src: src ?? '', visits: 1 });
  }

  /** A reader's visit of one book's page (bots and link previews are not counted here). */
  countBook(bookId: number, at = Date.now()): void {
    const day = this.dayOf(at);
    const key = `${day}|${bookId}`;
    const entry = this.books.get(key);
    if (entry) entry.visits += 1;
    // Bounded like the placement counts: past it, the next flush makes room.
    else if (this.books.size < 50_000) this.books.set(key, { day, bookId, visits: 1 });
  }

  /** The UTC day of `at` (epoch ms), formatted once per day rather than once per visit. */
  private dayOf(at: number): string {
    const sameDay = at >= this.day.start && at < this.day.start + DAY_MS;
    if (!sameDay) {
      const start = at - (at % DAY_MS);
      this.day = { start, text: new Date(start).toISOString().slice(0, 10) };
    }
    return this.day.text;
  }

  /** Writes every count made before the call (after the write already running, if any). */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing.then(() => this.flush());
    if (this.counts.size === 0 && this.books.size === 0) return Promise.resolve();
    const batch = this.counts;
    const books = this.books;
    this.counts = new Map();
    this.books = new Map();
    this.flushing = Promise.all([
      addPageVisits(this.db, [...batch.values()]).catch((error: unknown) => {
        putBack(this.counts, batch);
        throw error;
      }),
      addBookVisits(this.db, [...books.values()]).catch((error: unknown) => {
        putBack(this.books, books);
        throw error;
      }),
    ])
      .then(() => undefined)
      .catch((error: unknown) => {
        this.logger.error({ err: error }, 'page visit counts not written; will retry');
      })
      .finally(() => {
        this.flushing = null;
      });
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}

/** A failed write's counts go back into the map the next flush writes. */
function putBack<T extends { visits: number }>(into: Map<string, T>, batch: ReadonlyMap<string, T>): void {
  for (const [key, row] of batch) {
    const entry = into.get(key);
    if (entry) entry.visits += row.visits;
    else into.set(key, row);
  }
}
