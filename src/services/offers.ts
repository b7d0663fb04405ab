import { randomUUID } from 'node:crypto';
import { OutboundError } from '../catalog/http-client.js';
import type { OfferReader } from '../catalog/offers.js';
import {
  ANY_COUNTRY,
  currentOffers,
  type Offer,
  type OfferRead,
  type OfferSource,
  staleSources,
} from '../domain/offers.js';
import {
  claimOfferRead,
  deferOfferRead,
  disabledOfferSources,
  type OfferReadRow,
  offerReadsForBook,
  storeOfferRead,
} from '../store/offers.js';
import type { Db } from '../store/schema.js';
import { RefreshQueue } from './refresh-queue.js';

export type { Offer, OfferRead, OfferSource } from '../domain/offers.js';

/** A read that went wrong for another reason than a quota: asked again after this. */
const FAILURE_WAIT_MS = 10 * 60_000;
/** How long a reader may take before another instance may take the read over. */
const LEASE_MS = 60_000;
/** A book and country asked for within this is not queued again by this process. */
const REQUEUE_MS = 30_000;
/** How long the admin's source switches are reused. */
const SETTINGS_MS = 10_000;

export interface OfferServiceOptions {
  db: Db;
  reader: OfferReader;
  /** `OFFER_SOURCES` (already limited to `PROVIDERS`). */
  sources: readonly OfferSource[];
  ttlMs: number;
  /** Offers of the book at `slug` changed: its pages must be rendered again (every instance). */
  changed: (slug: string) => void;
  onError: (error: unknown) => void;
  now?: () => number;
}

export interface OfferBook {
  id: number;
  slug: string;
  isbn13: string | null;
  title: string;
  subtitle?: string | null;
  authors: readonly string[];
  /** The Apple Books id of the book's audiobook (`apple_audiobook`), when it holds one. */
  appleAudiobookId?: string | null;
}

/**
 * Offers on the book page (issue 47), never on its render path: pages show what is stored, and a
 * page rendered with missing or stale offers asks `want`, which only queues a background read and
 * returns at once. The reads take a lease per book, source and country in the database
 * (`offer_reads`), so of several instances exactly one asks each source; their requests count
 * against the offer budgets (`OFFER_BUDGET_*`, shared through Redis), and a refusal, a quota answer
 * (429, `RESOURCE_EXHAUSTED`) or a failure keeps the lease until the time asked, so nobody retries
 * sooner. Arrived offers emit a change that drops the book's cached pages everywhere.
 */
export class OfferService {
  private readonly queue: RefreshQueue;
  private readonly queued = new Map<string, number>();
  private readonly owner = randomUUID();
  private readonly now: () => number;
  private disabled: { value: Promise<ReadonlySet<OfferSource>>; at: number } | null = null;
  private closed = false;

  constructor(private readonly options: OfferServiceOptions) {
    // A read cut short by shutdown (its database closed under it) is no error worth a log line.
    this.queue = new RefreshQueue((error) => this.closed || options.onError(error), 500);
    this.now = options.now ?? Date.now;
  }

  /** Queued reads are dropped and nothing new is queued (shutdown). */
  close(): void {
    this.closed = true;
  }

  get ttlMs(): number {
    return this.options.ttlMs;
  }

  /** Whether any source may be asked at all (`OFFER_SOURCES`). */
  get configured(): boolean {
    return this.options.sources.length > 0;
  }

  /** The offers a reader in `country` may be shown now (fresh ones only). */
  current(offers: readonly Offer[], country: string | null): Offer[] {
    return currentOffers(offers, country, this.now(), this.options.ttlMs);
  }

  /**
   * Called while a page is rendered: queues a read of the sources whose offers for `country` are
   * missing or stale. Never waits for anything.
   */
  want(book: OfferBook, reads: readonly OfferRead[], country: string | null): void {
    const sources = this.sourcesFor(book);
    if (this.closed || !country || sources.length === 0) return;
    const now = this.now();
    const stale = staleSources(reads, sources, country, now, this.options.ttlMs);
    if (stale.length === 0) return;
    const key = `${book.id}|${country}`;
    const last = this.queued.get(key);
    if (last !== undefined && now - last < REQUEUE_MS) return;
    if (this.queued.size > 10_000) this.queued.clear();
    this.queued.set(key, now);
    this.queue.schedule(key, () => this.refresh(book, stale, country));
  }

  /**
   * The sources that can answer for a book: all of them by its ISBN; without one, only iTunes, whose
   * audiobook is looked up by its Apple id or searched for by title and author.
   */
  private sourcesFor(book: OfferBook): readonly OfferSource[] {
    if (book.isbn13) return this.options.sources;
    const audiobook = Boolean(book.appleAudiobookId) || (book.authors.length > 0 && book.title.trim() !== '');
    return audiobook ? this.options.sources.filter((source) => source === 'itunes') : [];
  }

  /** Reads waiting in this process. */
  get pending(): number {
    return this.queue.size;
  }

  /** The admin's switches: sources an admin turned off (cached briefly). */
  disabledSources(): Promise<ReadonlySet<OfferSource>> {
    const now = this.now();
    if (!this.disabled || now - this.disabled.at > SETTINGS_MS) {
      const value = disabledOfferSources(this.options.db).then((list) => new Set(list));
      value.catch(() => (this.disabled = null));
      this.disabled = { value, at: now };
    }
    return this.disabled.value;
  }

  settingsChanged(): void {
    this.disabled = null;
  }

  /** When each source was last read for a book (the admin's book page). */
  reads(bookId: number): Promise<OfferReadRow[]> {
    return offerReadsForBook(this.options.db, bookId);
  }

  /** Reads each of `sources` whose lease this process wins; the book's pages change if any did. */
  async refresh(book: OfferBook, sources: readonly OfferSource[], country: string): Promise<void> {
    const disabled = await this.disabledSources();
    let stored = false;
    for (const source of sources) {
      if (this.closed) return;
      if (disabled.has(source)) continue;
      stored = (await this.readOne(book, source, country)) || stored;
    }
    if (stored) this.options.changed(book.slug);
  }

  private async readOne(book: OfferBook, source: OfferSource, country: string): Promise<boolean> {
    const { db, reader, ttlMs } = this.options;
    const now = this.now();
    const claim = {
      bookId: book.id,
      source,
      country: source === 'openlibrary' ? ANY_COUNTRY : country,
      owner: this.owner,
    };
    const staleBefore = new Date(now - ttlMs).toISOString();
    if (!(await claimOfferRead(db, { ...claim, now, leaseMs: LEASE_MS, staleBefore }))) return false;
    try {
      const offers = await reader.read(source, book, claim.country);
      return await storeOfferRead(db, claim, offers, new Date(this.now()).toISOString());
    } catch (error) {
      const wait =
        error instanceof OutboundError && error.retryAfterMs !== null ? error.retryAfterMs : FAILURE_WAIT_MS;
      const reason = error instanceof OutboundError ? error.code : 'error';
      if (this.closed) return false;
      await deferOfferRead(db, claim, this.now() + wait, reason);
      if (!(error instanceof OutboundError)) this.options.onError(error);
      return false;
    }
  }
}
