import { createHash, randomBytes } from 'node:crypto';
import {
  clearLoginAttempts,
  pruneLoginAttempts,
  releaseLoginAttempt,
  reserveLoginAttempt,
} from '../../store/login-throttle.js';
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
  markUserLocked,
  normaliseEmail,
  recordLoginAttempt,
  recordSuccessfulLogin,
} from '../../store/users.js';
import { decoyHash, verifyPassword } from './passwords.js';

export type { AdminSession } from '../../store/sessions.js';

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
 * Checks the password and opens a session. Each attempt first reserves a failure slot for its IP and
 * for the email (one atomic upsert each, in the database), and only an attempt within both limits
 * runs scrypt: a burst of parallel guesses is cut off at the limit on every instance, and a right
 * password arriving after the limit is refused like a wrong one. The email's counter exists whether
 * or not the account does, and unknown emails verify against a decoy hash, so neither the answer,
 * the lock nor the time taken tells which emails have accounts.
 */
export async function login(db: Db, input: LoginInput, now = new Date()): Promise<LoginResult> {
  const at = now.toISOString();
  const since = new Date(now.getTime() - LOCK_MS).toISOString();
  const ipKey = `ip:${input.ip}`;
  const accountKey = `account:${normaliseEmail(input.email)}`;
  await pruneLoginAttempts(db, since);
  if ((await reserveLoginAttempt(db, ipKey, IP_FAILURE_LIMIT, at, since)) > IP_FAILURE_LIMIT) {
    await recordLoginAttempt(db, input.ip, input.email, false);
    return { kind: 'ip_limited' };
  }
  const attempt = await reserveLoginAttempt(db, accountKey, ACCOUNT_FAILURE_LIMIT, at, since);
  if (attempt > ACCOUNT_FAILURE_LIMIT) {
    await recordLoginAttempt(db, input.ip, input.email, false);
    return { kind: 'locked' };
  }
  const user = await findUserByEmail(db, input.email);
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await decoyHash()));
  const accepted = valid && user?.isActive === true;
  await recordLoginAttempt(db, input.ip, input.email, accepted);
  if (!user || !accepted) {
    // The reserved slots stay: this was a failure.
    if (user && attempt === ACCOUNT_FAILURE_LIMIT) {
      await markUserLocked(db, user.id, new Date(now.getTime() + LOCK_MS).toISOString());
    }
    return { kind: 'invalid' };
  }
  await releaseLoginAttempt(db, ipKey);
  await clearLoginAttempts(db, accountKey);
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

/** Sign-in, sign-out and the session behind a cookie, for the admin area's routes and hook. */
export class AdminAuth {
  constructor(private readonly db: Db) {}

  login(input: LoginInput): Promise<LoginResult> {
    return login(this.db, input);
  }

  logout(token: string): Promise<void> {
    return logout(this.db, token);
  }

  sessionFor(token: string): Promise<AdminSession | null> {
    return sessionForToken(this.db, token);
  }
}
