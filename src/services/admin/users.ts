import type { AuditActor } from '../../store/audit.js';
import { isUniqueViolation } from '../../store/errors.js';
import type { Db } from '../../store/schema.js';
import { deleteUserSessions } from '../../store/sessions.js';
import {
  type AdminUser,
  countUsers,
  findUserById,
  insertUser,
  listUsers,
  type Role,
  updateUser,
} from '../../store/users.js';
import { AdminArea, audited, type CommandResult, type FieldErrors, ok } from './commands.js';
import { hashPassword, MIN_PASSWORD_LENGTH } from './passwords.js';

export { type AdminUser, ROLES, type Role } from '../../store/users.js';

export type { CommandResult, FieldErrors } from './commands.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewUserInput {
  email: string;
  password: string;
  role: Role;
}

export async function createUser(
  db: Db,
  actor: AuditActor,
  input: NewUserInput,
): Promise<CommandResult<AdminUser>> {
  const errors: FieldErrors = {};
  if (!EMAIL.test(input.email.trim())) errors.email = 'Enter an email address.';
  if (input.password.length < MIN_PASSWORD_LENGTH)
    errors.password = `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await audited(
      { db, actor },
      (trx) => insertUser(trx, input.email, passwordHash, input.role),
      (user) => ({
        action: 'user.create',
        entityType: 'user',
        entityId: user.id,
        after: { email: user.email, role: user.role },
      }),
    );
    return ok(user);
  } catch (error) {
    if (isUniqueViolation(error))
      return { ok: false, errors: { email: 'An account with this email exists.' } };
    throw error;
  }
}

export interface UserChanges {
  role: Role;
  isActive: boolean;
  password: string;
}

/** Role, active flag and an optional new password; the last active admin cannot be demoted or disabled. */
export async function changeUser(
  db: Db,
  actor: AuditActor,
  id: number,
  changes: UserChanges,
): Promise<CommandResult<AdminUser> | null> {
  const before = await findUserById(db, id);
  if (!before) return null;
  const demotes =
    before.role === 'admin' && before.isActive && (changes.role !== 'admin' || !changes.isActive);
  if (demotes && (await countUsers(db, 'admin')) <= 1)
    return { ok: false, errors: { role: 'The last active admin must stay an active admin.' } };
  if (changes.password && changes.password.length < MIN_PASSWORD_LENGTH)
    return { ok: false, errors: { password: `Use at least ${MIN_PASSWORD_LENGTH} characters.` } };
  const passwordHash = changes.password ? await hashPassword(changes.password) : undefined;
  await audited(
    { db, actor },
    async (trx) => {
      await updateUser(trx, id, { role: changes.role, isActive: changes.isActive, passwordHash });
      // A disabled account or a new password ends every open session of that account.
      if (!changes.isActive || passwordHash) await deleteUserSessions(trx, id);
    },
    {
      action: 'user.update',
      entityType: 'user',
      entityId: id,
      before: { role: before.role, isActive: before.isActive },
      after: { role: changes.role, isActive: changes.isActive, passwordChanged: !!passwordHash },
    },
  );
  const after = await findUserById(db, id);
  return after ? { ok: true, value: after } : null;
}

/** The first admin from ADMIN_EMAIL/ADMIN_PASSWORD, only while no account exists at all. */
export async function ensureFirstAdmin(
  db: Db,
  email: string | null,
  password: string | null,
): Promise<AdminUser | null> {
  if (!email || !password) return null;
  if ((await countUsers(db)) > 0) return null;
  const result = await createUser(db, { id: null, email: 'system' }, { email, password, role: 'admin' });
  if (!result.ok) throw new Error(`ADMIN_EMAIL/ADMIN_PASSWORD: ${Object.values(result.errors).join(' ')}`);
  return result.value;
}

/** Accounts, for the Users page (admins only). */
export class AdminUsers extends AdminArea {
  list(): Promise<AdminUser[]> {
    return listUsers(this.db);
  }

  create(actor: AuditActor, input: NewUserInput): Promise<CommandResult<AdminUser>> {
    return createUser(this.db, actor, input);
  }

  /** null: there is no account with this id. */
  change(actor: AuditActor, id: number, changes: UserChanges): Promise<CommandResult<AdminUser> | null> {
    return changeUser(this.db, actor, id, changes);
  }
}
