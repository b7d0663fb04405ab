import type { Destination } from '../../domain/links.js';
import {
  type AccessCode,
  type AccessCodeInput,
  destinationsOfCode,
  insertAccessCode,
  linkDestination,
  listAccessCodes,
  unlinkDestination,
  updateAccessCode,
} from '../../store/access-codes.js';
import type { AuditEntry } from '../../store/audit.js';
import { listAllDestinations } from '../../store/destinations.js';
import { isUniqueViolation } from '../../store/errors.js';
import { AdminArea, type AuditActor, type CommandResult, invalid, ok } from './commands.js';

export type { AccessCode } from '../../store/access-codes.js';

/** The Access codes page: every code with the destinations it unlocks, and all destinations to add. */
export interface AccessCodesOverview {
  codes: Array<{ code: AccessCode; destinations: Destination[] }>;
  destinations: Destination[];
}

/** Access codes: patron links that unlock non-public destinations (a library's catalogue). */
export class AdminAccessCodes extends AdminArea {
  async overview(): Promise<AccessCodesOverview> {
    const codes = await listAccessCodes(this.db);
    const destinations = await listAllDestinations(this.db);
    const linked = await Promise.all(codes.map((code) => destinationsOfCode(this.db, code.id)));
    return { codes: codes.map((code, i) => ({ code, destinations: linked[i] ?? [] })), destinations };
  }

  async create(actor: AuditActor, input: AccessCodeInput): Promise<CommandResult<number>> {
    if (!input.slug) return invalid({ slug: 'A slug is required.' });
    let code: AccessCode;
    try {
      code = await this.audited(
        actor,
        (trx) => insertAccessCode(trx, input),
        (inserted) => this.entry('access_code.create', inserted.id, input),
      );
    } catch (error) {
      if (!isUniqueViolation(error, 'slug')) throw error;
      return invalid({ slug: 'Another access code has this slug.' });
    }
    this.events.emit('access-codes-changed');
    return ok(code.id);
  }

  async update(actor: AuditActor, id: number, input: Omit<AccessCodeInput, 'slug'>): Promise<void> {
    await this.audited(
      actor,
      (trx) => updateAccessCode(trx, id, input),
      this.entry('access_code.update', id, input),
    );
    this.events.emit('access-codes-changed');
  }

  /** Lets the code unlock one more destination (`add`) or one fewer (`remove`). */
  async changeDestination(
    actor: AuditActor,
    id: number,
    action: 'add' | 'remove',
    destinationId: number,
  ): Promise<void> {
    await this.audited(
      actor,
      (trx) =>
        action === 'add'
          ? linkDestination(trx, id, destinationId)
          : unlinkDestination(trx, id, destinationId),
      this.entry(`access_code.${action}_destination`, id, { destination_id: destinationId }),
    );
    this.events.emit('access-codes-changed');
  }

  private entry(action: string, id: number, after: unknown): AuditEntry {
    return { action, entityType: 'access_code', entityId: id, after };
  }
}
