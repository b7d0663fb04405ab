import { nowIso } from './db.js';
import type { Db } from './schema.js';
import { type AdminUser, userRowToUser } from './users.js';

export interface AdminSession {
  id: number;
  user: AdminUser;
  csrfToken: string;
  expiresAt: string;
}

export interface NewSession {
  tokenHash: string;
  userId: number;
  csrfToken: string;
  ip: string | null;
  userAgent: string | null;
  expiresAt: string;
}

export async function insertSession(db: Db, session: NewSession): Promise<void> {
  await db
    .insertInto('admin_sessions')
    .values({
      token_hash: session.tokenHash,
      user_id: session.userId,
      csrf_token: session.csrfToken,
      ip: session.ip,
      user_agent: session.userAgent?.slice(0, 300) ?? null,
      expires_at: session.expiresAt,
      created_at: nowIso(),
    })
    .execute();
}

/** A live session of an active account, or null (expired, unknown, or the account was disabled). */
export async function findSession(db: Db, tokenHash: string, now = nowIso()): Promise<AdminSession | null> {
  const row = await db
    .selectFrom('admin_sessions as s')
    .innerJoin('admin_users as u', 'u.id', 's.user_id')
    .selectAll('u')
    .select(['s.id as session_id', 's.csrf_token', 's.expires_at'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_at', '>', now)
    .where('u.is_active', '=', 1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: Number(row.session_id),
    user: userRowToUser(row),
    csrfToken: row.csrf_token,
    expiresAt: row.expires_at,
  };
}

export async function deleteSession(db: Db, tokenHash: string): Promise<void> {
  await db.deleteFrom('admin_sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteUserSessions(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('admin_sessions').where('user_id', '=', userId).execute();
}

export async function deleteExpiredSessions(db: Db, now = nowIso()): Promise<void> {
  await db.deleteFrom('admin_sessions').where('expires_at', '<=', now).execute();
}
