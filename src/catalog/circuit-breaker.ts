export type BreakerState = 'closed' | 'open' | 'half-open';

export interface BreakerOptions {
  /** Consecutive failures that open the circuit. */
  threshold: number;
  /** How long an open circuit refuses calls before letting one trial call through. */
  cooldownMs: number;
  now?: () => number;
}

/**
 * A per-provider circuit breaker. While a provider is down, every book page would otherwise wait
 * for its timeout; an open circuit answers "unavailable" at once and lets one trial call through
 * after the cool-down (half-open). The trial's outcome closes or re-opens the circuit.
 */
export class CircuitBreaker {
  private failures = 0;
  private openedAt: number | null = null;
  /** Set while the circuit is open for a time the provider asked for (a quota answer's Retry-After). */
  private openUntil: number | null = null;
  private trialInFlight = false;
  private readonly now: () => number;

  constructor(private readonly options: BreakerOptions) {
    this.now = options.now ?? Date.now;
  }

  get state(): BreakerState {
    if (this.openUntil !== null) return this.now() >= this.openUntil ? 'half-open' : 'open';
    if (this.openedAt === null) return 'closed';
    return this.now() - this.openedAt >= this.options.cooldownMs ? 'half-open' : 'open';
  }

  /**
   * Opens the circuit for `ms` whatever the failure count: the provider said how long to wait (a
   * quota answer). Afterwards one trial call goes through, as after any cool-down.
   */
  openFor(ms: number): void {
    this.failures = Math.max(this.failures, this.options.threshold);
    this.openedAt = this.now();
    this.openUntil = this.openedAt + ms;
    this.trialInFlight = false;
  }

  /** Whether a call may go out now; in half-open state only one trial call at a time. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === 'closed') return true;
    if (state === 'open' || this.trialInFlight) return false;
    this.trialInFlight = true;
    return true;
  }

  success(): void {
    this.failures = 0;
    this.openedAt = null;
    this.openUntil = null;
    this.trialInFlight = false;
  }

  failure(): void {
    this.failures += 1;
    if (this.trialInFlight || this.failures >= this.options.threshold) {
      this.openedAt = this.now();
      this.openUntil = null;
    }
    this.trialInFlight = false;
  }

  /** A call that ended without a verdict (the caller gave up): free the trial slot. */
  release(): void {
    this.trialInFlight = false;
  }
}
