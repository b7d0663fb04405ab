import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { CircuitBreaker } from '../catalog/circuit-breaker.js';
import { LocalRateStore } from './local-rate-store.js';
import type { Redis } from './redis.js';

/** The rows a visitor's request can add, each with a cap of its own. */
export const WRITE_KINDS = [
  'miss',
  'feedback',
  'vote',
  'saved_event',
  'list',
  'list_book',
  'book',
  'click',
  'search',
] as const;
export type WriteKind = (typeof WRITE_KINDS)[number];

/**
 * Who a write is charged to: `ip:<address>` (an IPv6 address's /64), as the API rate limit counts
 * requests; null for a caller that is not limited (a request with an API key, an operator, an import).
 */
export type Writer = string | null;

export type Admission =
  | { kind: 'admitted' }
  /** The same write from the same writer in this window: answered as done, stored once. */
  | { kind: 'duplicate' }
  | { kind: 'refused'; retryAfterSeconds: number };

export interface WriteLimitStats {
  refused: Readonly<Record<WriteKind, number>>;
  duplicates: Readonly<Record<WriteKind, number>>;
  /** Writes counted by this process alone because Redis was down, its circuit open or a command failed. */
  countedLocally: number;
}

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result: Counted | null) => void;

/** The counter stores @fastify/rate-limit uses for the API's request limit: fixed windows, atomic increments. */
interface WindowStore {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback): void;
}

type RedisStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  nameSpace: string,
) => WindowStore;

// The library's own Redis store (one Lua script: INCR, then PEXPIRE on a window's first write), so
// write caps and the API rate limit count alike. It ships without type declarations.
const RedisStore = createRequire(import.meta.url)(
  '@fastify/rate-limit/store/RedisStore.js',
) as RedisStoreClass;

const ADMITTED: Admission = { kind: 'admitted' };
const DUPLICATE: Admission = { kind: 'duplicate' };

const tally = (): Record<WriteKind, number> =>
  Object.fromEntries(WRITE_KINDS.map((kind) => [kind, 0])) as Record<WriteKind, number>;

/** A short digest of what a write says, so a repeat of it is recognised without keeping its text. */
export function writeFingerprint(...parts: ReadonlyArray<string | number | null>): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}

/** Where a cap reached by a private address is reported (the app's logger, once it exists). */
export interface WriteLimitLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * Loopback, RFC 1918, shared (100.64/10), link-local and IPv6 unique-local addresses, as writers are
 * named: an IPv6 address by its /64, so `::1` is `::`.
 */
const PRIVATE_WRITER =
  /^ip:(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.|169\.254\.|::$|f[cd][0-9a-f]{2}:|fe[89ab][0-9a-f]:)/i;
/** A misconfigured proxy hits the caps all day; once an hour is enough to be seen. */
const PRIVATE_WARNING_EVERY_MS = 3_600_000;

export interface WriteLimitOptions {
  /** The most writes of each kind one writer may make in a window. */
  caps: Readonly<Record<WriteKind, number>>;
  windowMs: number;
  /** Counters shared by every instance; null keeps them in this process. */
  redis: Redis | null;
  breaker?: CircuitBreaker | null;
  /** Told once per outage of Redis; this process counts alone meanwhile. */
  onStoreFailure?: (error: Error | null, message: string) => void;
}

/**
 * Per-writer caps on the rows anonymous visitors can make the service store (issue 43): a write is
 * admitted while its writer's count for its kind is under the cap in the current window; past it,
 * nothing is stored and the caller answers 429. A write that repeats one admitted in the window (same
 * writer, same fingerprint) is a duplicate: not stored again and not counted again. A refusal costs
 * one counter command (a read where repeats are merged, else the increment of the writer's one
 * counter) and leaves no new key, so a flood past the cap stores nothing anywhere.
 *
 * Unlike the API rate limit, an outage of Redis does not lift the caps: this process's own counters
 * take over (each instance then allows the cap on its own) until Redis answers again.
 */
export class WriteLimits {
  private readonly shared: WindowStore | null;
  private readonly local = new LocalRateStore();
  private readonly refused = tally();
  private readonly duplicates = tally();
  private countedLocally = 0;
  private failing = false;
  private log: WriteLimitLog | null = null;
  private privateWarnedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: WriteLimitOptions) {
    this.shared = options.redis ? new RedisStore(false, false, options.redis, 'write-limit:') : null;
  }

  async admit(kind: WriteKind, writer: Writer, fingerprint: string | null = null): Promise<Admission> {
    if (writer === null) return ADMITTED;
    const key = `${kind}:${writer}`;
    if (this.shared && this.sharedUsable()) {
      try {
        const admission = await this.decide(this.shared, kind, key, fingerprint);
        this.options.breaker?.success();
        this.failing = false;
        return admission;
      } catch (error) {
        this.options.breaker?.failure();
        this.report(
          error instanceof Error ? error : null,
          'redis failed; write caps are counted per process',
        );
      }
    }
    if (this.shared) this.countedLocally += 1;
    return this.decide(this.local, kind, key, fingerprint);
  }

  /**
   * Behind a reverse proxy without TRUST_PROXY every reader is the proxy's address, so one cap is
   * the whole site's: a cap reached by a private address says so in the log (at most hourly).
   */
  logTo(log: WriteLimitLog): void {
    this.log = log;
  }

  stats(): WriteLimitStats {
    return {
      refused: { ...this.refused },
      duplicates: { ...this.duplicates },
      countedLocally: this.countedLocally,
    };
  }

  private async decide(
    store: WindowStore,
    kind: WriteKind,
    key: string,
    fingerprint: string | null,
  ): Promise<Admission> {
    const cap = this.options.caps[kind];
    if (fingerprint !== null) {
      // Read first, so that writes past the cap leave no repeat keys behind.
      const used = await this.read(store, key);
      if (used.current >= cap) return this.refuse(kind, key, used.ttl);
      const seen = await this.incr(store, `${key}:${fingerprint}`, 1);
      if (seen.current > 1) {
        this.duplicates[kind] += 1;
        return DUPLICATE;
      }
    }
    const counted = await this.incr(store, key, cap);
    return counted.current > cap ? this.refuse(kind, key, counted.ttl) : ADMITTED;
  }

  /** Like the API rate limit, Redis is not waited for while it is down or its circuit is open. */
  private sharedUsable(): boolean {
    const { redis, breaker } = this.options;
    if (redis && redis.status !== 'ready') {
      this.report(null, 'redis is not connected; write caps are counted per process');
      return false;
    }
    if (breaker && !breaker.tryAcquire()) {
      this.report(null, 'redis circuit open; write caps are counted per process');
      return false;
    }
    return true;
  }

  private refuse(kind: WriteKind, key: string, ttlMs: number): Admission {
    this.refused[kind] += 1;
    this.warnIfPrivate(kind, key.slice(kind.length + 1));
    // Never "retry in 0 s": the window may have a few milliseconds left.
    return { kind: 'refused', retryAfterSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
  }

  private warnIfPrivate(kind: WriteKind, writer: string): void {
    const now = Date.now();
    if (!this.log || !PRIVATE_WRITER.test(writer) || now - this.privateWarnedAt < PRIVATE_WARNING_EVERY_MS)
      return;
    this.privateWarnedAt = now;
    this.log.warn(
      { kind, writer, cap: this.options.caps[kind] },
      `a private address (${writer.slice(3)}) reached the cap on ${kind} writes: if Booklink runs behind a reverse proxy, set TRUST_PROXY, or every reader counts as the proxy and all share one cap`,
    );
  }

  private report(error: Error | null, message: string): void {
    if (this.failing) return;
    this.failing = true;
    (this.options.onStoreFailure ?? ((e, m) => console.error(m, e ?? '')))(error, message);
  }

  private incr(store: WindowStore, key: string, max: number): Promise<Counted> {
    return new Promise((resolve, reject) => {
      store.incr(
        key,
        (error, result) => (error || !result ? reject(error) : resolve(result)),
        this.options.windowMs,
        max,
      );
    });
  }

  private read(store: WindowStore, key: string): Promise<Counted> {
    return new Promise((resolve, reject) => {
      store.read(key, (error, result) => (error || !result ? reject(error) : resolve(result)));
    });
  }
}

/**
 * A visitor's allowance of new books, handed down the creation paths (`MayCreate`): each creation
 * takes one; once one is refused the caller knows when to retry (`refusedFor`), so the page can say
 * so instead of "no page yet".
 */
export class CreationAllowance {
  /** Seconds until the writer may create books again, once a creation was refused. */
  refusedFor: number | null = null;

  constructor(
    private readonly limits: WriteLimits,
    private readonly writer: string,
  ) {}

  async take(): Promise<boolean> {
    const admission = await this.limits.admit('book', this.writer);
    if (admission.kind !== 'refused') return true;
    this.refusedFor = admission.retryAfterSeconds;
    return false;
  }
}

/** Whether a caller may create books: false for automated clients, true unlimited, or a visitor's allowance. */
export type MayCreate = boolean | CreationAllowance;

/** Takes one creation from `mayCreate`: true when a book may be created now. */
export async function mayCreateNow(mayCreate: MayCreate): Promise<boolean> {
  return typeof mayCreate === 'boolean' ? mayCreate : mayCreate.take();
}
