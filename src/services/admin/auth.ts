import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../store/schema.js';
import {
  type AdminSession,
  deleteExpiredSessions,
  deleteSession,
  findSession,
  insertSession,
} from '../../store/sessions.js';
import {
  findUserByEmail,
  recentFailuresFromIp,
  recordFailedLogin,
  recordLoginAttempt,
  recordSuccessfulLogin,
} from '../../store/users.js';
import { decoyHash, verifyPassword } from './passwords.js';

/** Ten wrong passwords lock an account for 15 minutes; one IP gets 30 failures per 15 minutes. */
export const ACCOUNT_FAILURE_LIMIT = 10;
export const IP_FAILURE_LIMIT = 30;
export const LOCK_MS = 15 * 60_000;
export const SESSION_TTL_MS = 12 * 60 * 60_000;

export type LoginResult =
  | { kind: 'ok'; token: string; session: AdminSession }
  | { kind: 'invalid' }
  | { kind: 'locked' }
  | { kind: 'ip_limited' };

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const randomToken = (): string => randomBytes(32).toString('base64url');

export interface LoginInput {
  email: string;
  password: string;
  ip: string;
  userAgent: string | null;
}

/**
 * Checks the password and opens a session. Unknown emails verify against a decoy hash, so the
 * answer takes as long as for a real account and the same "invalid" comes back.
 */
export async function login(db: Db, input: LoginInput, now = new Date()): Promise<LoginResult> {
  const since = new Date(now.getTime() - LOCK_MS).toISOString();
  if ((await recentFailuresFromIp(db, input.ip, since)) >= IP_FAILURE_LIMIT) return { kind: 'ip_limited' };
  const user = await findUserByEmail(db, input.email);
  if (user?.lockedUntil && user.lockedUntil > now.toISOString()) {
    await recordLoginAttempt(db, input.ip, input.email, false);
    return { kind: 'locked' };
  }
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
  await recordLoginAttempt(db, input.ip, input.email, valid && !!user?.isActive);
  if (!user?.isActive) return { kind: 'invalid' };
  if (!valid) {
    const lockUntil = new Date(now.getTime() + LOCK_MS).toISOString();
    await recordFailedLogin(db, user.id, ACCOUNT_FAILURE_LIMIT, lockUntil);
    return { kind: 'invalid' };
  }
  await recordSuccessfulLogin(db, user.id);
  await deleteExpiredSessions(db, now.toISOString());
  const token = randomToken();
  const csrfToken = randomToken();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS).toISOString();
  await insertSession(db, {
    tokenHash: hashToken(token),
    userId: user.id,
    csrfToken,
    ip: input.ip,
    userAgent: input.userAgent,
    expiresAt,
  });
  const session = await findSession(db, hashToken(token), now.toISOString());
  if (!session) return { kind: 'invalid' };
  return { kind: 'ok', token, session };
}

export function sessionForToken(db: Db, token: string): Promise<AdminSession | null> {
  return findSession(db, hashToken(token));
}

export function logout(db: Db, token: string): Promise<void> {
  return deleteSession(db, hashToken(token));
}
