import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher, request } from 'undici';
import type { Config } from '../config.js';
import { parseHttpUrl } from '../domain/urls.js';
import { type BreakerState, CircuitBreaker } from './circuit-breaker.js';
import { OUTCOME_OF, OutboundError } from './outbound-errors.js';
import type { ProviderBudget } from './provider-budget.js';
import { type ProviderCounters, ProviderHealth, type ProviderLog } from './provider-health.js';
import { quotaWaitMs, retryAfterMs } from './quota.js';
import { requesterOf } from './requester.js';
import { isTimeout, readJsonQuietly, readLimited } from './response-body.js';
import { type FollowOptions, followShortLink, SHORT_LINK_HOSTS } from './short-links.js';

/**
 * The one outbound HTTP client. Every call names the provider it is for, may only reach the
 * configured provider origins, and goes through that provider's retry policy and circuit breaker.
 * No user-supplied URL is ever fetched, except short links (see short-links.ts).
 */

export { OutboundError, type OutboundErrorCode, type ProviderOutcome } from './outbound-errors.js';
export type { ProviderCounters, ProviderLog } from './provider-health.js';
export { type FollowOptions, SHORT_LINK_HOSTS } from './short-links.js';

export interface HttpClientOptions {
  /** Origins (scheme://host[:port]) calls may reach; anything else is refused before any I/O. */
  allowedOrigins: readonly string[];
  /** Timeout of one attempt, unless a call passes its own. */
  timeoutMs: number;
  /** Extra attempts after a network error, a 5xx or a 429. */
  retries?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
  breakerThreshold?: number;
  breakerCooldownMs?: number;
  shortLinkHosts?: readonly string[];
  maxBodyBytes?: number;
  userAgent?: string;
  dispatcher?: Dispatcher;
  /** Asked before every request (retries included); without it requests are never limited. */
  budget?: ProviderBudget | null;
  log?: ProviderLog;
  /** The breakers' clock (tests move it instead of waiting out a Retry-After). */
  now?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** One call as the client sends it: for which provider, what, and what answer it accepts. */
interface OutboundCall {
  provider: string;
  method: 'GET' | 'HEAD';
  url: string;
  options: CallOptions;
  accept: string;
}

type Attempt =
  | { kind: 'ok'; response: Dispatcher.ResponseData }
  | { kind: 'retry'; error: OutboundError; retryAfterMs: number | null };

export class HttpClient {
  private readonly origins: Set<string>;
  private readonly shortLinkHosts: readonly string[];
  private readonly breakers = new Map<string, CircuitBreaker>();
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly health: ProviderHealth;

  constructor(private readonly options: HttpClientOptions) {
    this.origins = new Set(options.allowedOrigins.map((origin) => new URL(origin).origin));
    this.shortLinkHosts = options.shortLinkHosts ?? SHORT_LINK_HOSTS;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 32 });
    this.health = new ProviderHealth(options.log);
  }

  /** Sends the client's log lines to `log` from now on (the app's logger, once it exists). */
  logTo(log: ProviderLog): void {
    this.health.logTo(log);
  }

  /** GETs a JSON document; throws OutboundError on refusal, timeout, non-2xx or bad JSON. */
  async getJson(provider: string, url: string, options: CallOptions = {}): Promise<unknown> {
    const response = await this.call({ provider, method: 'GET', url, options, accept: 'application/json' });
    const bytes = await readLimited(response.body, this.options.maxBodyBytes ?? 4 * 1024 * 1024);
    let body: unknown;
    try {
      if (!bytes) throw new OutboundError(`${provider}: response too large`, provider, 'too_large');
      body = JSON.parse(bytes.toString('utf8')) as unknown;
    } catch (error) {
      const failure =
        error instanceof OutboundError
          ? error
          : new OutboundError(`${provider}: invalid JSON`, provider, 'bad_json', null, { cause: error });
      this.health.countersOf(provider).failures += 1;
      this.health.settle(provider, 'bad_answer', failure);
      throw failure;
    }
    this.health.settle(provider, 'ok');
    return body;
  }

  /**
   * Whether an image exists at `url` (HEAD, 2xx with an image content type); never reads a body.
   * With `minBytes`, a declared size below it counts as no image: blank and placeholder covers are tiny.
   */
  async probeImage(
    provider: string,
    url: string,
    options: CallOptions & { minBytes?: number } = {},
  ): Promise<boolean> {
    try {
      const response = await this.call({ provider, method: 'HEAD', url, options, accept: 'image/*' });
      await response.body.dump();
      this.health.settle(provider, 'ok');
      const length = Number(response.headers['content-length'] ?? Number.NaN);
      if (options.minBytes && Number.isFinite(length) && length < options.minBytes) return false;
      return String(response.headers['content-type'] ?? '').startsWith('image/');
    } catch (error) {
      if (error instanceof OutboundError && error.code === 'http_status' && error.status === 404)
        return false;
      throw error;
    }
  }

  /** Counters per provider, for /metrics. */
  stats(): Record<string, ProviderCounters> {
    return this.health.stats((provider) => this.breaker(provider).state);
  }

  breakerState(provider: string): BreakerState {
    return this.breaker(provider).state;
  }

  isAllowed(url: string): boolean {
    const parsed = parseHttpUrl(url);
    return parsed !== null && this.origins.has(parsed.origin);
  }

  /** Follows a short link to the retailer URL behind it (see short-links.ts); never reads a body. */
  followShortLink(url: string, options: FollowOptions = {}): Promise<string | null> {
    const counters = this.health.countersOf('shortlink');
    counters.calls += 1;
    return followShortLink(url, this.shortLinkHosts, options.retailerHosts ?? [], {
      dispatcher: this.dispatcher,
      timeoutMs: this.options.timeoutMs,
      userAgent: this.userAgent(),
      signal: options.signal,
      onFailure: () => {
        counters.failures += 1;
      },
    });
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async call(outbound: OutboundCall): Promise<Dispatcher.ResponseData> {
    const { provider, url, options } = outbound;
    if (!this.isAllowed(url)) {
      throw new OutboundError(`${provider}: host not allowed: ${url}`, provider, 'host_not_allowed');
    }
    // A call its caller gave up on already is neither sent nor counted against the budget.
    options.signal?.throwIfAborted();
    const counters = this.health.countersOf(provider);
    const breaker = this.breaker(provider);
    if (!breaker.tryAcquire()) {
      counters.rejected += 1;
      this.health.count(provider, 'circuit_open');
      throw new OutboundError(`${provider}: circuit open`, provider, 'circuit_open');
    }
    try {
      await this.spend(provider, null, options.signal);
    } catch (error) {
      // Never sent: no verdict on the provider.
      breaker.release();
      throw error;
    }
    counters.calls += 1;
    try {
      const response = await this.withRetries(outbound);
      breaker.success();
      return response;
    } catch (error) {
      if (!(error instanceof OutboundError)) {
        // The caller gave up (its own signal): no verdict on the provider.
        breaker.release();
      } else if (error.code === 'http_status' && !this.isServerFault(error.status)) {
        // A 404 or 400 is an answer, not an outage.
        breaker.success();
        this.health.settle(provider, 'http_4xx');
      } else if (error.code === 'quota') {
        // Asking again before the time it named would only be refused again: wait that long.
        counters.failures += 1;
        counters.quota += 1;
        breaker.openFor(error.retryAfterMs ?? 0);
        this.health.settle(provider, 'quota', error);
      } else {
        counters.failures += 1;
        if (error.code === 'timeout') counters.timeouts += 1;
        breaker.failure();
        this.health.settle(provider, OUTCOME_OF[error.code], error);
      }
      throw error;
    }
  }

  /**
   * Counts one request against the provider budget, for the client the call's signal was made for
   * (see requester.ts); throws `budget_spent` when there is no room. `failed` is the error a retry
   * would follow: when the budget refuses the retry, that error is the call's outcome.
   */
  private async spend(provider: string, failed: OutboundError | null, signal?: AbortSignal): Promise<void> {
    const budget = this.options.budget;
    if (!budget) return;
    const decision = await budget.take(provider, requesterOf(signal));
    if (decision.allowed) return;
    this.health.countersOf(provider).budgetRefused += 1;
    if (failed) throw failed;
    this.health.count(provider, decision.scope === 'global' ? 'budget_global' : 'budget_address');
    if (decision.scope === 'global') this.health.logSpentBudget(provider, decision);
    throw new OutboundError(
      `${provider}: request budget spent (${decision.window.max} per ${decision.window.windowMs / 1000} s${decision.scope === 'address' ? ' for this client' : ''})`,
      provider,
      'budget_spent',
      null,
      { retryAfterMs: decision.retryAfterMs },
    );
  }

  private async withRetries(outbound: OutboundCall): Promise<Dispatcher.ResponseData> {
    const { provider, options } = outbound;
    const retries = this.options.retries ?? 2;
    for (let attempt = 0; ; attempt++) {
      const result = await this.attempt(outbound);
      if (result.kind === 'ok') return result.response;
      if (attempt >= retries) throw result.error;
      await sleep(this.backoff(attempt, result.retryAfterMs), undefined, { signal: options.signal });
      // A retry is a request like any other: it needs room in the budget.
      await this.spend(provider, result.error, options.signal);
      this.health.countersOf(provider).retries += 1;
    }
  }

  private async attempt(outbound: OutboundCall): Promise<Attempt> {
    const { provider, method, url, options, accept } = outbound;
    const timeout = AbortSignal.timeout(options.timeoutMs ?? this.options.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let response: Dispatcher.ResponseData;
    try {
      response = await request(url, {
        method,
        signal,
        dispatcher: this.dispatcher,
        headers: { accept, 'user-agent': this.userAgent() },
      });
    } catch (error) {
      if (isTimeout(timeout) || isTimeout(options.signal)) {
        throw new OutboundError(`${provider}: timed out`, provider, 'timeout', null, { cause: error });
      }
      if (options.signal?.aborted) throw error;
      const failure = new OutboundError(`${provider}: network error`, provider, 'network', null, {
        cause: error,
      });
      return { kind: 'retry', error: failure, retryAfterMs: null };
    }
    if (response.statusCode >= 200 && response.statusCode < 300) return { kind: 'ok', response };
    const status = response.statusCode;
    if (status === 429 || status === 403) {
      const wait = quotaWaitMs(status, response.headers, await readJsonQuietly(response.body));
      if (wait !== null) {
        throw new OutboundError(
          `${provider}: quota answer (HTTP ${status}); asking again in ${Math.ceil(wait / 1000)} s`,
          provider,
          'quota',
          status,
          { retryAfterMs: wait },
        );
      }
    } else await response.body.dump();
    const error = new OutboundError(
      `${provider}: HTTP ${response.statusCode}`,
      provider,
      'http_status',
      response.statusCode,
    );
    if (!this.isServerFault(response.statusCode)) throw error;
    return { kind: 'retry', error, retryAfterMs: retryAfterMs(response.headers) };
  }

  private isServerFault(status: number | null): boolean {
    return status !== null && status >= 500;
  }

  /** Exponential back-off with jitter, capped; a 503's Retry-After is honoured up to the cap. */
  private backoff(attempt: number, retryAfter: number | null): number {
    const base = this.options.backoffMs ?? 100;
    const cap = this.options.maxBackoffMs ?? 1000;
    const exponential = base * 2 ** attempt * (0.5 + Math.random() / 2);
    return Math.min(cap, Math.max(exponential, retryAfter ?? 0));
  }

  private breaker(provider: string): CircuitBreaker {
    let breaker = this.breakers.get(provider);
    if (!breaker) {
      breaker = new CircuitBreaker({
        threshold: this.options.breakerThreshold ?? 5,
        cooldownMs: this.options.breakerCooldownMs ?? 30_000,
        now: this.options.now,
      });
      this.breakers.set(provider, breaker);
    }
    return breaker;
  }

  private userAgent(): string {
    return this.options.userAgent ?? 'Booklink/0.1 (+https://github.com/booklink)';
  }
}

export type ProviderUrls = Pick<
  Config,
  'openLibraryUrl' | 'openLibraryCoversUrl' | 'googleBooksUrl' | 'itunesUrl' | 'providerTimeoutMs'
>;

/** The client for the configured provider origins (the allow-list is exactly these origins). */
export function createHttpClient(
  config: ProviderUrls,
  overrides: Partial<HttpClientOptions> = {},
): HttpClient {
  return new HttpClient({
    allowedOrigins: [
      config.openLibraryUrl,
      config.openLibraryCoversUrl,
      config.googleBooksUrl,
      config.itunesUrl,
    ],
    timeoutMs: config.providerTimeoutMs,
    ...overrides,
  });
}
