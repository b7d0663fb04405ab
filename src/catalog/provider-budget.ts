import type { BudgetWindow } from '../config.js';

export type { BudgetWindow } from '../config.js';

/**
 * How many requests each remote provider may be sent, whoever causes them: the HTTP client asks
 * before every request (retries included), so every path (search page, API, /resolve, /isbn/,
 * embeds, cover checks) is counted without any route remembering to. One client address may use at
 * most `addressShare` of each window, so one client cannot spend the budget for everyone.
 */
export interface BudgetPolicy {
  /** Per provider, every window that must have room; a provider not named is never limited. */
  limits: Readonly<Record<string, readonly BudgetWindow[]>>;
  addressShare: number;
}

/** `global`: the provider's budget is spent for everyone; `address`: this client's share is. */
export type BudgetScope = 'global' | 'address';

export type BudgetDecision =
  | { allowed: true }
  | { allowed: false; scope: BudgetScope; window: BudgetWindow; retryAfterMs: number };

export interface ProviderBudget {
  readonly policy: BudgetPolicy;
  /** Counts one request to `provider` for `requester` (a client address, or null for the server's own work) if there is room. */
  take(provider: string, requester: string | null): Promise<BudgetDecision>;
  stats(): BudgetStats;
}

export interface BudgetStats {
  /** Decisions taken in this process alone because the shared counters (Redis) could not be asked. */
  localFallbacks: number;
}

export const ALLOWED: BudgetDecision = Object.freeze({ allowed: true });

/** One client's part of a window: a share of it, at least one request. */
export function addressLimit(window: BudgetWindow, share: number): number {
  return Math.max(1, Math.floor(window.max * share));
}

/** The fixed window `now` falls in, and when it ends; aligned to the epoch, so every instance agrees. */
export function windowAt(window: BudgetWindow, now: number): { index: number; endsAt: number } {
  const index = Math.floor(now / window.windowMs);
  return { index, endsAt: (index + 1) * window.windowMs };
}

interface WindowCount {
  index: number;
  total: number;
  byRequester: Map<string, number>;
}

/**
 * The budget counted in this process: exact for one instance, and the fallback of the shared one
 * while Redis is unreachable. A window's counts are dropped when the next one starts, and a client
 * is only remembered for requests it was allowed, so memory stays within the budget's own size.
 */
export class MemoryProviderBudget implements ProviderBudget {
  private readonly counts = new Map<string, WindowCount>();

  constructor(
    readonly policy: BudgetPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  stats(): BudgetStats {
    return { localFallbacks: 0 };
  }

  async take(provider: string, requester: string | null): Promise<BudgetDecision> {
    return this.takeNow(provider, requester);
  }

  takeNow(provider: string, requester: string | null): BudgetDecision {
    const windows = this.policy.limits[provider] ?? [];
    if (windows.length === 0) return ALLOWED;
    const now = this.now();
    const counts = windows.map((window) => this.countOf(provider, window, now));
    for (const [i, window] of windows.entries()) {
      const count = counts[i];
      if (!count) continue;
      const retryAfterMs = windowAt(window, now).endsAt - now;
      if (count.total >= window.max) return { allowed: false, scope: 'global', window, retryAfterMs };
      const own = requester === null ? 0 : (count.byRequester.get(requester) ?? 0);
      if (own >= addressLimit(window, this.policy.addressShare)) {
        return { allowed: false, scope: 'address', window, retryAfterMs };
      }
    }
    for (const count of counts) {
      count.total += 1;
      if (requester !== null) count.byRequester.set(requester, (count.byRequester.get(requester) ?? 0) + 1);
    }
    return ALLOWED;
  }

  private countOf(provider: string, window: BudgetWindow, now: number): WindowCount {
    const key = `${provider} ${window.windowMs}`;
    const index = windowAt(window, now).index;
    let count = this.counts.get(key);
    if (!count || count.index !== index) {
      count = { index, total: 0, byRequester: new Map() };
      this.counts.set(key, count);
    }
    return count;
  }
}
