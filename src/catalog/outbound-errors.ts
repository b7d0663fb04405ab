/** Why an outbound call gave no answer, and what became of each call (for /metrics). */

export type OutboundErrorCode =
  | 'host_not_allowed'
  | 'circuit_open'
  | 'timeout'
  | 'network'
  | 'http_status'
  | 'too_large'
  | 'bad_json'
  /** The provider answered that our quota is spent (429, Google's RESOURCE_EXHAUSTED). */
  | 'quota'
  /** The provider budget (this server's own limit) has no room: the request was never sent. */
  | 'budget_spent';

/** Codes of calls the provider never saw because of a limit: the answer is missing, not negative. */
const REFUSALS: ReadonlySet<OutboundErrorCode> = new Set(['circuit_open', 'quota', 'budget_spent']);

export class OutboundError extends Error {
  override name = 'OutboundError';
  /** How long the provider (or the budget) asks to wait, for `quota` and `budget_spent`. */
  readonly retryAfterMs: number | null;
  constructor(
    message: string,
    readonly provider: string,
    readonly code: OutboundErrorCode,
    readonly status: number | null = null,
    options?: ErrorOptions & { retryAfterMs?: number },
  ) {
    super(message, options);
    this.retryAfterMs = options?.retryAfterMs ?? null;
  }

  /** Whether the provider's answer is missing because of a limit (its budget, its quota, its circuit). */
  get refused(): boolean {
    return REFUSALS.has(this.code);
  }
}

/** What became of one call, for /metrics: `ok` and `http_4xx` are answers, the rest failures or refusals. */
export type ProviderOutcome =
  | 'ok'
  | 'http_4xx'
  | 'http_5xx'
  | 'quota'
  | 'timeout'
  | 'network'
  | 'bad_answer'
  | 'circuit_open'
  | 'budget_global'
  | 'budget_address';

/** The outcome a failure counts as. */
export const OUTCOME_OF: Readonly<Record<OutboundErrorCode, ProviderOutcome>> = {
  host_not_allowed: 'bad_answer',
  circuit_open: 'circuit_open',
  timeout: 'timeout',
  network: 'network',
  http_status: 'http_5xx',
  too_large: 'bad_answer',
  bad_json: 'bad_answer',
  quota: 'quota',
  budget_spent: 'budget_global',
};
