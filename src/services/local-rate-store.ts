type Callback = (error: Error | null, result: { current: number; ttl: number }) => void;

interface Window {
  count: number;
  resetAt: number;
}

const SWEEP_EVERY_MS = 60_000;

/**
 * Fixed one-window counters for one process, the store @fastify/rate-limit uses without Redis.
 * The library's own in-memory store answers with its live counter object, so requests whose checks
 * resume in the same tick (a burst whose key lookups share one query) all read the final count and
 * are all refused; this one answers each caller with the count its own increment produced.
 */
export class LocalRateStore {
  private readonly windows = new Map<string, Window>();
  private nextSweep = Date.now() + SWEEP_EVERY_MS;

  incr(key: string, callback: Callback, timeWindow: number): void {
    const now = Date.now();
    this.sweep(now);
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + timeWindow };
      this.windows.set(key, window);
    }
    window.count += 1;
    callback(null, { current: window.count, ttl: window.resetAt - now });
  }

  read(key: string, callback: Callback): void {
    const now = Date.now();
    const window = this.windows.get(key);
    if (!window || window.resetAt <= now) callback(null, { current: 0, ttl: 0 });
    else callback(null, { current: window.count, ttl: window.resetAt - now });
  }

  /** Route-level settings share the counters: every /api/ route draws on one budget. */
  child(): LocalRateStore {
    return this;
  }

  get size(): number {
    return this.windows.size;
  }

  /** Expired windows are dropped once a minute, so memory follows the clients of the last minute. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) this.windows.delete(key);
    }
  }
}
