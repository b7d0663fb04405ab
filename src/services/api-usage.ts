import { touchApiKeys } from '../store/api-keys.js';
import { addUsage, type UsageRow } from '../store/api-usage.js';
import type { Db } from '../store/schema.js';
import { BufferedWriter, type WriterLogger } from './buffered-writer.js';

/**
 * Usage of the JSON API for the operator: calls per day, key, `source` parameter and route. Calls are
 * counted in memory by the buffered writer (one counter per combination, merged as calls arrive) and
 * upserted once a second (and on close), so the request path never waits on a write and the table
 * grows by distinct combinations, not by requests. The keys' `last_used_at` is written the same way.
 */
export interface ApiCall {
  keyId: number | null;
  source: string | null;
  route: string;
  at: Date;
}

export interface UsageRecorderStats {
  recorded: number;
  flushed: number;
  pending: number;
  failedFlushes: number;
  /** Calls whose counter the database refused (set aside and logged, so the others are still written). */
  setAside: number;
}

export const MAX_SOURCE_LENGTH = 50;
const DAY_MS = 86_400_000;

/** Without control characters: a NUL cannot be stored in PostgreSQL text, and none belongs in a name. */
function printable(value: string): string {
  let kept = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x20 && code !== 0x7f) kept += char;
  }
  return kept;
}

/**
 * The `source` as sent, without control characters (a NUL would make the counter unstorable) and
 * bounded so a hostile value cannot bloat the table.
 */
export function usageSource(raw: unknown): string | null {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (typeof value !== 'string') return null;
  return printable(value.slice(0, MAX_SOURCE_LENGTH * 4)).slice(0, MAX_SOURCE_LENGTH) || null;
}

export interface UsageRecorderOptions {
  flushIntervalMs?: number;
  /** Distinct counters kept while the database is unreachable; beyond it new combinations are dropped. */
  maxPending?: number;
  logger?: WriterLogger;
}

interface KeySeen {
  keyId: number;
  at: string;
}

export class UsageRecorder {
  private readonly counters: BufferedWriter<UsageRow>;
  private readonly seen: BufferedWriter<KeySeen>;
  private day = { start: Number.NEGATIVE_INFINITY, name: '' };

  constructor(db: Db, options: UsageRecorderOptions = {}) {
    const common = {
      flushIntervalMs: options.flushIntervalMs,
      // Counters merge in memory: the timer writes them, however many calls arrive.
      maxBatch: Number.POSITIVE_INFINITY,
      maxRetries: 1,
      closeAttempts: 5,
      maxPending: options.maxPending ?? 50_000,
      logger: options.logger,
    };
    this.counters = new BufferedWriter<UsageRow>({
      ...common,
      name: 'api usage counter',
      write: (rows) => addUsage(db, rows),
      coalesce: {
        // The route is a route pattern and the source has no control characters (`usageSource`); a
        // null source is stored as '' (so they are one counter).
        key: (row) => `${row.day}\u0000${row.keyId ?? 0}\u0000${row.route}\u0000${row.source ?? ''}`,
        merge: (into, row) => {
          into.count += row.count;
        },
      },
      weight: (row) => row.count,
    });
    // Apart from the counters: retrying them because a timestamp failed would count calls twice.
    this.seen = new BufferedWriter<KeySeen>({
      ...common,
      name: 'api key last use',
      write: (rows) => touchApiKeys(db, new Map(rows.map((row) => [row.keyId, row.at]))),
      coalesce: {
        key: (row) => String(row.keyId),
        merge: (into, row) => {
          if (row.at > into.at) into.at = row.at;
        },
      },
    });
  }

  /** Never throws, never waits. On the path of every API call: no string is built but the key. */
  record(call: ApiCall): void {
    void this.counters.record({
      day: this.dayOf(call.at),
      keyId: call.keyId,
      source: call.source,
      route: call.route,
      count: 1,
    });
    if (call.keyId !== null) void this.seen.record({ keyId: call.keyId, at: call.at.toISOString() });
  }

  /** The UTC day of a time, computed once a day rather than once a call. */
  private dayOf(at: Date): string {
    const ms = at.getTime();
    if (ms < this.day.start || ms >= this.day.start + DAY_MS) {
      const start = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
      this.day = { start, name: new Date(start).toISOString().slice(0, 10) };
    }
    return this.day.name;
  }

  /** Writes what waits now. Resolves even when the write failed. */
  async flush(): Promise<void> {
    await this.counters.flush();
    await this.seen.flush();
  }

  /** Stops the timers and writes what is left, trying a few times before giving up loudly. */
  async close(): Promise<void> {
    await this.counters.close();
    await this.seen.close();
  }

  stats(): UsageRecorderStats {
    const { recorded, flushed, pending, failedFlushes, setAside } = this.counters.stats();
    return { recorded, flushed, pending, failedFlushes, setAside };
  }
}
