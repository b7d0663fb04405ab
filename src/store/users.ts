import type { Selectable } from 'kysely';
import { nowIso } from './db.js';
import type { Database, Db } from './schema.js';

export const ROLES = ['admin', 'editor'] as const;
export type Role = (typeof ROLES)[number];
export const isRole = (value: string): value is Role => (ROLES as readonly string[]).includes(value);

export interface AdminUser {
  id: number;
  email: string;
  role: Role;
  isActive: boolean;
  failedAttempts: number;
  lockedUntil: string | null;
  lastLoginAt: string | null;
  createdAt: string;
}

type UserRow = Selectable<Database['admin_users']>;

export function userRowToUser(row: UserRow): AdminUser {
  return {
    id: Number(row.id),
    email: row.email,
    // An unknown stored role gets the lesser rights rather than the greater.
    role: row.role === 'admin' ? 'admin' : 'editor',
    isActive: Number(row.is_active) === 1,
    failedAttempts: Number(row.failed_attempts),
    lockedUntil: row.locked_until,
    lastLoginAt: row.last_login_at,
    createdAt: row.created_at,
  };
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export async function findUserByEmail(
  db: Db,
  email: string,
): Promise<(AdminUser & { passwordHash: string }) | null> {
  const row = await db
    .selectFrom('admin_users')
    .selectAll()
    .where('email', '=', normaliseEmail(email))
    .executeTakeFirst();
  return row ? { ...userRowToUser(row), passwordHash: row.password_hash } : null;
}

export async function findUserById(db: Db, id: number): Promise<AdminUser | null> {
  const row = await db.selectFrom('admin_users').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? userRowToUser(row) : null;
}

export async function listUsers(db: Db): Promise<AdminUser[]> {
  const rows = await db.selectFrom('admin_users').selectAll().orderBy('email').execute();
  return rows.map(userRowToUser);
}

export async function countUsers(db: Db, role?: Role): Promise<number> {
  let query = db.selectFrom('admin_users').select((eb) => eb.fn.countAll<number>().as('n'));
  if (role) query = query.where('role', '=', role).where('is_active', '=', 1);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertUser(
  db: Db,
  email: string,
  passwordHash: string,
  role: Role,
): Promise<AdminUser> {
  const now = nowIso();
  const row = await db
    .insertInto('admin_users')
    .values({
      email: normaliseEmail(email),
      password_hash: passwordHash,
      role,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return userRowToUser(row);
}

export async function updateUser(
  db: Db,
  id: number,
  changes: { role?: Role; isActive?: boolean; passwordHash?: string },
): Promise<void> {
  await db
    .updateTable('admin_users')
    .set({
      ...(changes.role && { role: changes.role }),
      ...(changes.isActive !== undefined && { is_active: changes.isActive ? 1 : 0 }),
      ...(changes.passwordHash && { password_hash: changes.passwordHash }),
      updated_at: nowIso(),
    })
    .where('id', '=', id)
    .execute();
}

/** Marks an account locked until `until` (shown on the Users page; sign-ins are refused by the throttle). */
export async function markUserLocked(db: Db, id: number, until: string): Promise<void> {
  await db.updateTable('admin_users').set({ locked_until: until }).where('id', '=', id).execute();
}

export async function recordSuccessfulLogin(db: Db, id: number): Promise<void> {
  await db
    .updateTable('admin_users')
    .set({ failed_attempts: 0, locked_until: null, last_login_at: nowIso() })
    .where('id', '=', id)
    .execute();
}

export async function recordLoginAttempt(db: Db, ip: string, email: string, success: boolean): Promise<void> {
  await db
    .insertInto('admin_login_attempts')
    .values({
      ip,
      email: normaliseEmail(email).slice(0, 320),
      success: success ? 1 : 0,
      created_at: nowIso(),
    })
    .execute();
}
