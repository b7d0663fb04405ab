/**
 * Background work that renews cached values, one job at a time and each in a turn of the event loop
 * of its own (`setImmediate`), so requests are answered between them. On SQLite a query runs
 * synchronously: fifty pages expiring together and rendered again by the requests that found them
 * stale kept the event loop for 200 ms (bench/README, issue 48); queued here they cost each request
 * waiting at most one render. A key already queued or running is not queued again; past `maxPending`
 * jobs a new one is dropped (its entry stays stale and is asked for again by a later request).
 */
export class RefreshQueue {
  private readonly pending = new Map<string, () => Promise<void>>();
  private readonly running = new Set<string>();
  private draining = false;

  constructor(
    private readonly onError: (error: unknown) => void,
    private readonly maxPending = 1000,
  ) {}

  schedule(key: string, job: () => Promise<void>): void {
    if (this.pending.has(key) || this.running.has(key) || this.pending.size >= this.maxPending) return;
    this.pending.set(key, job);
    if (!this.draining) void this.drain();
  }

  /** Jobs waiting (not the one running). */
  get size(): number {
    return this.pending.size;
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      for (let next = this.take(); next; next = this.take()) {
        const [key, job] = next;
        this.running.add(key);
        try {
          await new Promise<void>((resolve) => setImmediate(resolve));
          await job();
        } catch (error) {
          this.onError(error);
        } finally {
          this.running.delete(key);
        }
      }
    } finally {
      this.draining = false;
    }
  }

  private take(): [string, () => Promise<void>] | undefined {
    const first = this.pending.entries().next();
    if (first.done) return undefined;
    this.pending.delete(first.value[0]);
    return first.value;
  }
}
