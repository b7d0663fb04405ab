import type { BreakerState } from './circuit-breaker.js';
import type { OutboundError, ProviderOutcome } from './outbound-errors.js';
import type { BudgetDecision } from './provider-budget.js';

/** Where the client writes its few lines: the app's logger (pino), or the console without one. */
export interface ProviderLog {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

const consoleLog: ProviderLog = {
  warn: (details, message) => console.warn(message, JSON.stringify(details)),
  info: (details, message) => console.info(message, JSON.stringify(details)),
};

export interface ProviderCounters {
  /** Logical calls that went out (retries not included). */
  calls: number;
  /** Calls that failed for good (after retries), timeouts included. */
  failures: number;
  retries: number;
  timeouts: number;
  /** Calls refused at once because the provider's circuit was open. */
  rejected: number;
  /** Calls answered with a quota answer (429, RESOURCE_EXHAUSTED): never retried, the circuit opens. */
  quota: number;
  /** Calls (or retries) not sent because the provider budget had no room. */
  budgetRefused: number;
  /** Every call by what became of it. */
  outcomes: Partial<Record<ProviderOutcome, number>>;
  breaker: BreakerState;
}

export type Counters = Omit<ProviderCounters, 'breaker'>;

/** A provider failing since `since`: logged when it starts and when the provider answers again. */
interface Episode {
  since: number;
  failures: number;
}

/**
 * Per provider: the counters /metrics shows, and the few log lines of the client (a failure once per
 * episode, the provider answering again, a spent budget once per window).
 */
export class ProviderHealth {
  private readonly counters = new Map<string, Counters>();
  private readonly episodes = new Map<string, Episode>();
  /** Per provider, until when its spent budget has been logged (once per window). */
  private readonly budgetLogged = new Map<string, number>();

  constructor(private log: ProviderLog = consoleLog) {}

  logTo(log: ProviderLog): void {
    this.log = log;
  }

  /** Counters per provider, with each one's breaker state. */
  stats(breakerOf: (provider: string) => BreakerState): Record<string, ProviderCounters> {
    const result: Record<string, ProviderCounters> = {};
    for (const [provider, counters] of this.counters) {
      result[provider] = { ...counters, outcomes: { ...counters.outcomes }, breaker: breakerOf(provider) };
    }
    return result;
  }

  logSpentBudget(provider: string, decision: Extract<BudgetDecision, { allowed: false }>): void {
    const now = Date.now();
    if ((this.budgetLogged.get(provider) ?? 0) > now) return;
    this.budgetLogged.set(provider, now + decision.retryAfterMs);
    this.log.warn(
      {
        provider,
        budget: decision.window.max,
        windowSeconds: decision.window.windowMs / 1000,
        retryAfterSeconds: Math.ceil(decision.retryAfterMs / 1000),
      },
      `provider budget spent: ${provider} is asked nothing more for ${Math.ceil(decision.retryAfterMs / 1000)} s; answers come from the cache and the local catalog`,
    );
  }

  /**
   * Counts a call's outcome, and logs a failure once per episode: the first failure of a provider
   * that answered before (with its status), then one line when it answers again.
   */
  settle(provider: string, outcome: ProviderOutcome, error?: OutboundError): void {
    this.count(provider, outcome);
    const episode = this.episodes.get(provider);
    if (!error) {
      if (!episode) return;
      this.episodes.delete(provider);
      const seconds = Math.round((Date.now() - episode.since) / 1000);
      this.log.info(
        { provider, failures: episode.failures, seconds },
        `provider ${provider} answers again after ${episode.failures} failed calls in ${seconds} s`,
      );
      return;
    }
    if (episode) {
      episode.failures += 1;
      return;
    }
    this.episodes.set(provider, { since: Date.now(), failures: 1 });
    const wait =
      error.retryAfterMs === null ? {} : { retryAfterSeconds: Math.ceil(error.retryAfterMs / 1000) };
    this.log.warn(
      { provider, outcome, status: error.status, code: error.code, ...wait },
      `provider ${provider} failing: ${error.message}`,
    );
  }

  count(provider: string, outcome: ProviderOutcome): void {
    const outcomes = this.countersOf(provider).outcomes;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }

  countersOf(provider: string): Counters {
    let counters = this.counters.get(provider);
    if (!counters) {
      counters = {
        calls: 0,
        failures: 0,
        retries: 0,
        timeouts: 0,
        rejected: 0,
        quota: 0,
        budgetRefused: 0,
        outcomes: {},
      };
      this.counters.set(provider, counters);
    }
    return counters;
  }
}
