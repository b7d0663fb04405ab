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
import {
  AdminArea,
  type AuditActor,
  audited,
  type CommandContext,
  type CommandResult,
  invalid,
  ok,
} from './commands.js';

export interface KeysOverview {
  keys: ApiKey[];
  /** Calls in the last 30 days by key id (0: anonymous) and by `source`. */
  byKey: Map<number, number>;
  bySource: Array<{ source: string; calls: number }>;
}

export async function keysOverview(ctx: Pick<CommandContext, 'db'>, now = new Date()): Promise<KeysOverview> {
  const db = ctx.db;
  const [keys, usage] = await Promise.all([listApiKeys(db), listUsage(db, addDays(dayOf(now), -29))]);
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

export { API_KEY_SCOPES, type ApiKey, type RevokeOutcome } from '../../store/api-keys.js';

const MAX_KEY_NAME_LENGTH = 200;

/** Creates a key; the clear key is in the result only, to be shown once. */
export async function createKey(
  ctx: CommandContext,
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
  const created = await audited(
    ctx,
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

/** Revokes the key with this id or prefix; only a revoke that happened is audited and announced. */
export async function revokeKey(ctx: CommandContext, ref: string): Promise<RevokeOutcome> {
  const outcome = await audited(
    ctx,
    (trx) => revokeApiKey(trx, ref),
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
  if (outcome.kind === 'revoked') ctx.events.emit('api-keys-changed');
  return outcome;
}

/** API keys: the overview with usage, creating (the clear key returned once) and revoking. */
export class AdminKeys extends AdminArea {
  overview(): Promise<KeysOverview> {
    return keysOverview({ db: this.db });
  }

  create(
    actor: AuditActor,
    name: string,
    scopes: string[],
  ): Promise<CommandResult<{ key: string; apiKey: ApiKey }>> {
    return createKey(this.as(actor), name, scopes);
  }

  /** `ref`: the key's id or its prefix (as `booklink apikey revoke` takes it). */
  revoke(actor: AuditActor, ref: number | string): Promise<RevokeOutcome> {
    return revokeKey(this.as(actor), String(ref));
  }
}
