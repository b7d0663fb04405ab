import { setTimeout as delay } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import { touchApiKeys } from './api-keys.js';
import { isDatabaseUnavailable } from './errors.js';
import type { Database } from './schema.js';

/**
 * Usage of the JSON API for the operator: calls per day, key, `source` parameter and route. Calls are
 * counted in memory and upserted as counters once a second (and on close), so the request path never
 * waits on a write and the table grows by distinct combinations, not by requests.
 */
export interface ApiCall {
  keyId: number | null;
  source: string | null;
  route: string;
  at: Date;
}

export interface UsageRow {
  day: string;
  keyId: number | null;
  source: string | null;
  route: string;
  count: number;
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
// 5 columns a row: far below either database's bound-parameter limit.
const ROWS_PER_STATEMENT = 500;

/** Adds counts to the stored counters; rows must be unique on (day, key, source, route). */
export async function addUsage(db: Kysely<Database>, rows: readonly UsageRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      const values = rows.slice(start, start + ROWS_PER_STATEMENT).map((row) => ({
        day: row.day,
        key_id: row.keyId ?? 0,
        source: row.source ?? '',
        route: row.route,
        count: row.count,
      }));
      await trx
        .insertInto('api_usage')
        .values(values)
        .onConflict((conflict) =>
          conflict
            .columns(['day', 'key_id', 'source', 'route'])
            .doUpdateSet({ count: sql<number>`api_usage.count + excluded.count` }),
        )
        .execute();
    }
  });
}

/** Stored counters, newest day first (for the operator's usage view and tests). */
export async function listUsage(db: Kysely<Database>, since?: string): Promise<UsageRow[]> {
  let query = db.selectFrom('api_usage').selectAll();
  if (since) query = query.where('day', '>=', since);
  const rows = await query
    .orderBy('day', 'desc')
    .orderBy('key_id')
    .orderBy('source')
    .orderBy('route')
    .execute();
  return rows.map((row) => ({
    day: row.day,
    keyId: Number(row.key_id) || null,
    source: row.source || null,
    route: row.route,
    count: Number(row.count),
  }));
}

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

/** The counter a call adds to: one per day, key, route and source. */
const counterId = (day: string, keyId: number | null, route: string, source: string | null) =>
  JSON.stringify([day, keyId, route, source]);

export interface UsageRecorderOptions {
  flushIntervalMs?: number;
  /** Distinct counters kept while the database is unreachable; beyond it new combinations are dropped. */
  maxPending?: number;
  logger?: { error(details: object, message: string): void };
}

export class UsageRecorder {
  private pending = new Map<string, UsageRow>();
  private lastUsed = new Map<number, string>();
  private flushing: Promise<void> | null = null;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private consecutiveFailures = 0;
  private readonly counts = { recorded: 0, flushed: 0, failedFlushes: 0, setAside: 0 };
  private readonly maxPending: number;
  private readonly logger: NonNullable<UsageRecorderOptions['logger']>;

  constructor(
    private readonly db: Kysely<Database>,
    options: UsageRecorderOptions = {},
  ) {
    this.maxPending = options.maxPending ?? 50_000;
    this.logger = options.logger ?? { error: (details, message) => console.error(message, details) };
    this.timer = setInterval(() => void this.flush(), options.flushIntervalMs ?? 1000);
    // The timer alone must not keep a finished process alive.
    this.timer.unref();
  }

  /** Never throws, never waits. */
  record(call: ApiCall): void {
    if (this.closed) return;
    // On the path of every API call: a new row object is made only for a combination not seen since
    // the last flush.
    const day = call.at.toISOString().slice(0, 10);
    const id = counterId(day, call.keyId, call.route, call.source);
    const existing = this.pending.get(id);
    if (existing) existing.count += 1;
    else if (this.pending.size < this.maxPending)
      this.pending.set(id, { day, keyId: call.keyId, source: call.source, route: call.route, count: 1 });
    else return;
    this.counts.recorded += 1;
    if (call.keyId !== null) this.lastUsed.set(call.keyId, call.at.toISOString());
  }

  /** Writes what waits now; concurrent calls share one write. Resolves even when the write failed. */
  flush(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (this.pending.size === 0 && this.lastUsed.size === 0) return Promise.resolve();
    this.flushing = this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is left, trying a few times before giving up loudly. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    for (let attempt = 0; attempt < 5; attempt++) {
      const failures = this.counts.failedFlushes;
      await this.flush();
      if (this.counts.failedFlushes === failures) return;
      await delay(200);
    }
    this.logger.error({ pending: this.pending.size }, 'api usage could not be written before close; dropped');
  }

  stats(): UsageRecorderStats {
    let pending = 0;
    for (const row of this.pending.values()) pending += row.count;
    return { ...this.counts, pending };
  }

  private async write(): Promise<void> {
    const rows = [...this.pending.values()];
    const lastUsed = this.lastUsed;
    this.pending = new Map();
    this.lastUsed = new Map();
    try {
      await addUsage(this.db, rows);
      this.counts.flushed += rows.reduce((sum, row) => sum + row.count, 0);
      this.consecutiveFailures = 0;
    } catch (error) {
      this.counts.failedFlushes += 1;
      this.consecutiveFailures += 1;
      // Unreachable database: keep everything for later. Refused twice: one counter is poisoned; write
      // the others and set that one aside rather than lose every count from now on.
      if (isDatabaseUnavailable(error) || this.consecutiveFailures < 2) {
        this.restore(rows, lastUsed);
        this.logger.error({ err: error, counters: rows.length }, 'api usage flush failed; will retry');
        return;
      }
      this.consecutiveFailures = 0;
      const left = await this.writeSettingAside(rows);
      if (left.length > 0) {
        this.restore(left, lastUsed);
        return;
      }
    }
    // Apart from the counters: retrying them because a timestamp failed would count calls twice.
    await touchApiKeys(this.db, lastUsed).catch((error: unknown) => {
      this.logger.error({ err: error }, 'api key last_used_at update failed; skipped');
    });
  }

  /**
   * Writes counters in halves until the ones the database refuses are alone; those are set aside
   * (logged). Returns what is left unwritten if the database became unreachable on the way.
   */
  private async writeSettingAside(rows: UsageRow[]): Promise<UsageRow[]> {
    const chunks = [rows];
    for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
      try {
        await addUsage(this.db, chunk);
        this.counts.flushed += chunk.reduce((sum, row) => sum + row.count, 0);
      } catch (error) {
        if (isDatabaseUnavailable(error)) return [...chunk, ...chunks.flat()];
        if (chunk.length === 1) {
          this.counts.setAside += chunk[0]?.count ?? 0;
          this.logger.error(
            { err: error, counter: chunk[0] },
            'api usage counter refused by the database; set aside',
          );
          continue;
        }
        const middle = Math.ceil(chunk.length / 2);
        chunks.unshift(chunk.slice(0, middle), chunk.slice(middle));
      }
    }
    return [];
  }

  /** Puts counts that failed to write back, merged with what arrived meanwhile. */
  private restore(rows: UsageRow[], lastUsed: Map<number, string>): void {
    for (const row of rows) {
      const id = counterId(row.day, row.keyId, row.route, row.source);
      const existing = this.pending.get(id);
      if (existing) existing.count += row.count;
      else this.pending.set(id, row);
    }
    for (const [keyId, at] of lastUsed) if (!this.lastUsed.has(keyId)) this.lastUsed.set(keyId, at);
  }
}
