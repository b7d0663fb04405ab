import { createHash } from 'node:crypto';
import type { CircuitBreaker } from '../catalog/circuit-breaker.js';
import {
  ALLOWED,
  addressLimit,
  type BudgetDecision,
  type BudgetPolicy,
  type BudgetStats,
  type BudgetWindow,
  MemoryProviderBudget,
  type ProviderBudget,
  windowAt,
} from '../catalog/provider-budget.js';
import type { Config } from '../config.js';
import { type Redis, throughBreaker } from './redis.js';

/**
 * One atomic step for all of a provider's windows: refuse if any window is full for everyone (1)
 * or for this client (2), else count the request in every window. KEYS holds, per window, the
 * provider's count and the client's (the provider's again when there is no client); ARGV the
 * window count, whether there is a client, then per window its max, the client's max and the keys'
 * time to live. A refused request counts nowhere: the budget holds what was sent.
 */
const TAKE_SCRIPT = `
local n = tonumber(ARGV[1])
local client = ARGV[2] == '1'
for i = 1, n do
  local at = 3 + (i - 1) * 3
  if tonumber(redis.call('GET', KEYS[2 * i - 1]) or '0') >= tonumber(ARGV[at]) then return {1, i} end
  if client and tonumber(redis.call('GET', KEYS[2 * i]) or '0') >= tonumber(ARGV[at + 1]) then return {2, i} end
end
for i = 1, n do
  local ttl = tonumber(ARGV[3 + (i - 1) * 3 + 2])
  if redis.call('INCR', KEYS[2 * i - 1]) == 1 then redis.call('PEXPIRE', KEYS[2 * i - 1], ttl) end
  if client and redis.call('INCR', KEYS[2 * i]) == 1 then redis.call('PEXPIRE', KEYS[2 * i], ttl) end
end
return {0, 0}
`;
const TAKE_SHA = createHash('sha1').update(TAKE_SCRIPT).digest('hex');

type Refusal = Extract<BudgetDecision, { allowed: false }>;

/** Remembered refusals at most: past it the expired ones are dropped (all of them at worst). */
const MAX_REMEMBERED = 10_000;

/**
 * The provider budget shared by every instance through Redis (fixed windows aligned to the epoch,
 * counted by one Lua script, so three instances hold one budget exactly). A window found full is
 * remembered here until it ends, so a spent budget costs no Redis round trip per request. When Redis
 * is not connected, its circuit is open or a command fails, this process counts on its own (the
 * in-process budget at the same limits) and says so once per outage: the providers are still
 * protected, each instance within the whole budget, rather than let through unlimited.
 */
export class SharedProviderBudget implements ProviderBudget {
  private readonly fallback: MemoryProviderBudget;
  /** Refusals by provider (whole window) or provider and client (its share), with their window's index. */
  private readonly refused = new Map<string, Refusal & { index: number }>();
  private failing = false;
  private fallbacks = 0;

  constructor(
    private readonly redis: Redis,
    private readonly breaker: CircuitBreaker,
    readonly policy: BudgetPolicy,
    private readonly warn: (message: string) => void = (message) => console.warn(message),
    private readonly now: () => number = Date.now,
  ) {
    this.fallback = new MemoryProviderBudget(policy, now);
  }

  stats(): BudgetStats {
    return { localFallbacks: this.fallbacks };
  }

  async take(provider: string, requester: string | null): Promise<BudgetDecision> {
    const windows = this.policy.limits[provider] ?? [];
    if (windows.length === 0) return ALLOWED;
    const now = this.now();
    const known = this.remembered(provider, requester, now);
    if (known) return known;
    if (this.redis.status !== 'ready') return this.locally(provider, requester, 'redis is not connected');
    let answer: unknown;
    try {
      answer = await throughBreaker(this.breaker, () => this.run(provider, windows, requester, now));
    } catch (error) {
      return this.locally(provider, requester, error instanceof Error ? error.message : String(error));
    }
    if (this.failing) this.warn('provider budget: counting in Redis again');
    this.failing = false;
    const [verdict, index] = Array.isArray(answer) ? answer.map(Number) : [0, 0];
    const window = windows[(index ?? 1) - 1];
    if (!verdict || !window) return ALLOWED;
    const decision: Refusal = {
      allowed: false,
      scope: verdict === 1 ? 'global' : 'address',
      window,
      retryAfterMs: windowAt(window, now).endsAt - now,
    };
    this.remember(provider, requester, decision, now);
    return decision;
  }

  private run(provider: string, windows: readonly BudgetWindow[], requester: string | null, now: number) {
    const keys: string[] = [];
    const args: (string | number)[] = [windows.length, requester === null ? 0 : 1];
    for (const window of windows) {
      const { index, endsAt } = windowAt(window, now);
      const key = `provider-budget:${provider}:${window.windowMs}:${index}`;
      keys.push(key, requester === null ? key : `${key}:${requester}`);
      // Kept a second past the window's end, so a slow clock elsewhere still finds it.
      args.push(window.max, addressLimit(window, this.policy.addressShare), endsAt - now + 1000);
    }
    return this.redis.evalsha(TAKE_SHA, keys.length, ...keys, ...args).catch((error: unknown) => {
      if (!(error instanceof Error) || !error.message.includes('NOSCRIPT')) throw error;
      return this.redis.eval(TAKE_SCRIPT, keys.length, ...keys, ...args);
    });
  }

  private locally(provider: string, requester: string | null, reason: string): BudgetDecision {
    this.fallbacks += 1;
    if (!this.failing) this.warn(`provider budget: Redis unavailable (${reason}); counting in this process`);
    this.failing = true;
    return this.fallback.takeNow(provider, requester);
  }

  /** A refusal still in force: the provider's whole window, or this client's share of it. */
  private remembered(provider: string, requester: string | null, now: number): BudgetDecision | null {
    for (const key of requester === null ? [provider] : [provider, `${provider} ${requester}`]) {
      const refusal = this.refused.get(key);
      if (!refusal) continue;
      const { index, endsAt } = windowAt(refusal.window, now);
      if (index === refusal.index) return { ...refusal, retryAfterMs: endsAt - now };
      this.refused.delete(key);
    }
    return null;
  }

  private remember(provider: string, requester: string | null, refusal: Refusal, now: number): void {
    const key = refusal.scope === 'global' || requester === null ? provider : `${provider} ${requester}`;
    if (this.refused.size >= MAX_REMEMBERED) this.refused.clear();
    this.refused.set(key, { ...refusal, index: windowAt(refusal.window, now).index });
  }
}

/** The budget policy of the configuration: every budgeted provider's windows, the client's share. */
export function budgetPolicy(config: Pick<Config, 'providerBudgets' | 'providerBudgetShare'>): BudgetPolicy {
  return { limits: config.providerBudgets, addressShare: config.providerBudgetShare };
}

/** The shared budget with Redis, the in-process one without; none when no provider has a budget. */
export function createProviderBudget(
  config: Pick<Config, 'providerBudgets' | 'providerBudgetShare'>,
  redis: Redis | null,
  breaker: CircuitBreaker | null,
): ProviderBudget | null {
  const policy = budgetPolicy(config);
  if (Object.values(policy.limits).every((windows) => windows.length === 0)) return null;
  return redis && breaker
    ? new SharedProviderBudget(redis, breaker, policy)
    : new MemoryProviderBudget(policy);
}
