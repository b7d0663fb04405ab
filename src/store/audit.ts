import { nowIso } from './db.js';
import type { Db } from './schema.js';

export interface AuditActor {
  id: number | null;
  email: string;
}

export interface AuditEntry {
  action: string;
  entityType: string;
  entityId: string | number;
  before?: unknown;
  after?: unknown;
}

export interface AuditRecord {
  id: number;
  userEmail: string;
  action: string;
  entityType: string;
  entityId: string;
  before: string | null;
  after: string | null;
  createdAt: string;
}

const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));

/** Written in the same transaction as the change it describes, so the trail never misses one. */
export async function writeAudit(db: Db, actor: AuditActor, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('audit_log')
    .values({
      user_id: actor.id,
      user_email: actor.email,
      action: entry.action,
      entity_type: entry.entityType,
      entity_id: String(entry.entityId),
      before_json: json(entry.before),
      after_json: json(entry.after),
      created_at: nowIso(),
    })
    .execute();
}

export interface AuditFilter {
  entityType?: string;
  entityId?: string;
  limit: number;
  offset: number;
}

export async function listAudit(db: Db, filter: AuditFilter): Promise<AuditRecord[]> {
  let query = db.selectFrom('audit_log').selectAll();
  if (filter.entityType) query = query.where('entity_type', '=', filter.entityType);
  if (filter.entityId) query = query.where('entity_id', '=', filter.entityId);
  const rows = await query.orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute();
  return rows.map((row) => ({
    id: Number(row.id),
    userEmail: row.user_email,
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    before: row.before_json,
    after: row.after_json,
    createdAt: row.created_at,
  }));
}
