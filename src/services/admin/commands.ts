import { parseHttpUrl } from '../../domain/urls.js';
import { type AuditActor, type AuditEntry, writeAudit } from '../../store/audit.js';
import type { Db } from '../../store/schema.js';
import type { ChangeEvents } from '../change-events.js';

export type { AuditActor } from '../../store/audit.js';

/** Who acts in the audit log when an operator runs `booklink admin …` or `booklink apikey …`. */
export const CLI_ACTOR: AuditActor = Object.freeze({ id: null, email: 'cli' });

/**
 * One area of the admin use cases (books, lists, keys…), built once in `container.ts` with the
 * database and the cache events. Routes hand it who acts; it never hands the database back.
 */
export abstract class AdminArea {
  constructor(
    protected readonly db: Db,
    protected readonly events: ChangeEvents,
  ) {}

  /** `audited` for one operator's change in this area. */
  protected audited<T>(
    actor: AuditActor,
    change: (trx: Db) => Promise<T>,
    entry: AuditEntry | ((value: T) => AuditEntry | null),
  ): Promise<T> {
    return audited({ db: this.db, actor }, change, entry);
  }
}

/**
 * Runs `change` and writes its audit row in the same transaction, so the trail never misses a change
 * and never keeps one that rolled back. `entry` is the row, or reads it from what `change` returned
 * (null: nothing changed, no row). Returns what `change` returned.
 */
export function audited<T>(
  ctx: { db: Db; actor: AuditActor },
  change: (trx: Db) => Promise<T>,
  entry: AuditEntry | ((value: T) => AuditEntry | null),
): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    const value = await change(trx);
    const row = typeof entry === 'function' ? entry(value) : entry;
    if (row) await writeAudit(trx, ctx.actor, row);
    return value;
  });
}

export type FieldErrors = Record<string, string>;
export type CommandResult<T = undefined> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export const ok = <T>(value: T): CommandResult<T> => ({ ok: true, value });
export const invalid = (errors: FieldErrors): CommandResult<never> => ({ ok: false, errors });

/** http(s) only: an operator's typo must not become a `javascript:` link on a public page. */
export function isHttpUrl(value: string): boolean {
  return parseHttpUrl(value) !== null;
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** A window bound as typed (date or date-time); '' means open. Returns the stored form or an error. */
export function windowBound(value: string): { value: string | null } | { error: string } {
  const trimmed = value.trim();
  if (!trimmed) return { value: null };
  if (!DATE.test(trimmed) || Number.isNaN(Date.parse(trimmed)))
    return { error: 'Use a date like 2025-01-31.' };
  return { value: trimmed };
}
