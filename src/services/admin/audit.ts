import { type AuditRecord, listAudit } from '../../store/audit.js';
import type { Db } from '../../store/schema.js';

export type { AuditRecord } from '../../store/audit.js';

/** One page of the audit log, newest first, and whether an older page exists. */
export interface AuditPage {
  records: AuditRecord[];
  page: number;
  hasMore: boolean;
}

/** The audit log, read page by page. */
export class AdminAudit {
  constructor(private readonly db: Db) {}

  async page(page: number, size: number): Promise<AuditPage> {
    const rows = await listAudit(this.db, { limit: size + 1, offset: (page - 1) * size });
    return { records: rows.slice(0, size), page, hasMore: rows.length > size };
  }
}
