import { addDays, dayOf } from '../../store/analytics.js';
import {
  API_KEY_SCOPES,
  type ApiKey,
  createApiKey,
  listApiKeys,
  type RevokeOutcome,
  revokeApiKey,
} from '../../store/api-keys.js';
import { listUsage } from '../../store/api-usage.js';
import { AdminArea, type AuditActor, type CommandResult, invalid, ok } from './commands.js';

export interface KeysOverview {
  keys: ApiKey[];
  /** Calls in the last 30 days by key id (0: anonymous) and by `source`. */
  byKey: Map<number, number>;
  bySource: Array<{ source: string; calls: number }>;
}

export { API_KEY_SCOPES, type ApiKey, type RevokeOutcome } from '../../store/api-keys.js';

const MAX_KEY_NAME_LENGTH = 200;

/** API keys: the overview with usage, creating (the clear key returned once) and revoking. */
export class AdminKeys extends AdminArea {
  async overview(): Promise<KeysOverview> {
    const [keys, usage] = await Promise.all([
      listApiKeys(this.db),
      listUsage(this.db, addDays(dayOf(new Date()), -29)),
    ]);
    const byKey = new Map<number, number>();
    const sources = new Map<string, number>();
    for (const row of usage) {
      byKey.set(row.keyId ?? 0, (byKey.get(row.keyId ?? 0) ?? 0) + row.count);
      const source = row.source ?? '(none)';
      sources.set(source, (sources.get(source) ?? 0) + row.count);
    }
    const bySource = [...sources]
      .map(([source, calls]) => ({ source, calls }))
      .sort((a, b) => b.calls - a.calls);
    return { keys, byKey, bySource };
  }

  /** Creates a key; the clear key is in the result only, to be shown once. */
  async create(
    actor: AuditActor,
    name: string,
    scopes: string[],
  ): Promise<CommandResult<{ key: string; apiKey: ApiKey }>> {
    const trimmed = name.trim();
    if (!trimmed) return invalid({ name: 'Name the key after who uses it.' });
    if (trimmed.length > MAX_KEY_NAME_LENGTH)
      return invalid({ name: `Use at most ${MAX_KEY_NAME_LENGTH} characters.` });
    const unknown = scopes.find((scope) => !(API_KEY_SCOPES as readonly string[]).includes(scope));
    if (unknown !== undefined)
      return invalid({ scope: `Unknown scope "${unknown}" (known: ${API_KEY_SCOPES.join(', ')}).` });
    const created = await this.audited(
      actor,
      (trx) => createApiKey(trx, { name: trimmed, scopes }),
      ({ apiKey }) => ({
        action: 'apikey.create',
        entityType: 'api_key',
        entityId: apiKey.id,
        after: { name: apiKey.name, prefix: apiKey.prefix, scopes: apiKey.scopes },
      }),
    );
    return ok(created);
  }

  /**
   * Revokes the key with this id or prefix (as `booklink apikey revoke` takes it); only a revoke that
   * happened is audited and announced.
   */
  async revoke(actor: AuditActor, ref: number | string): Promise<RevokeOutcome> {
    const outcome = await this.audited(
      actor,
      (trx) => revokeApiKey(trx, String(ref)),
      (done) =>
        done.kind === 'revoked'
          ? {
              action: 'apikey.revoke',
              entityType: 'api_key',
              entityId: done.apiKey.id,
              before: { revokedAt: null },
              after: { revokedAt: done.apiKey.revokedAt },
            }
          : null,
    );
    if (outcome.kind === 'revoked') this.events.emit('api-keys-changed');
    return outcome;
  }
}
