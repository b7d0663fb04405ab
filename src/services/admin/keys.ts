import { addDays, dayOf } from '../../store/analytics.js';
import { type ApiKey, createApiKey, listApiKeys, revokeApiKey } from '../../store/api-keys.js';
import { listUsage } from '../../store/api-usage.js';
import { writeAudit } from '../../store/audit.js';
import {
  AdminArea,
  type AuditActor,
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

/** Creates a key; the clear key is in the result only, to be shown once. */
export async function createKey(
  ctx: CommandContext,
  name: string,
  scopes: string[],
): Promise<CommandResult<string>> {
  const trimmed = name.trim();
  if (!trimmed) return invalid({ name: 'Name the key after who uses it.' });
  const { key, apiKey } = await createApiKey(ctx.db, { name: trimmed, scopes });
  await writeAudit(ctx.db, ctx.actor, {
    action: 'apikey.create',
    entityType: 'api_key',
    entityId: apiKey.id,
    after: { name: apiKey.name, prefix: apiKey.prefix, scopes: apiKey.scopes },
  });
  return ok(key);
}

export async function revokeKey(ctx: CommandContext, id: number): Promise<boolean> {
  const outcome = await revokeApiKey(ctx.db, String(id));
  if (outcome.kind !== 'revoked') return false;
  ctx.events.emit('api-keys-changed');
  await writeAudit(ctx.db, ctx.actor, {
    action: 'apikey.revoke',
    entityType: 'api_key',
    entityId: id,
    before: { revokedAt: null },
    after: { revokedAt: outcome.apiKey.revokedAt },
  });
  return true;
}

/** API keys: the overview with usage, creating (the clear key returned once) and revoking. */
export class AdminKeys extends AdminArea {
  overview(): Promise<KeysOverview> {
    return keysOverview({ db: this.db });
  }

  create(actor: AuditActor, name: string, scopes: string[]): Promise<CommandResult<string>> {
    return createKey(this.as(actor), name, scopes);
  }

  revoke(actor: AuditActor, id: number): Promise<boolean> {
    return revokeKey(this.as(actor), id);
  }
}
