import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher, request } from 'undici';
import type { Config } from '../config.js';
import { type BreakerState, CircuitBreaker } from './circuit-breaker.js';
import type { BudgetDecision, ProviderBudget } from './provider-budget.js';
import { quotaWaitMs, retryAfterMs } from './quota.js';
import { requesterOf } from './requester.js';

/**
 * The one outbound HTTP client. Every call names the provider it is for, may only reach the
 * configured provider origins, and goes through that provider's retry policy and circuit breaker.
 * No user-supplied URL is ever fetched, except short links (see followShortLink).
 */

/** Short-link hosts whose redirects we may follow to find the retailer URL behind them. */
export const SHORT_LINK_HOSTS: readonly string[] = [
  'amzn.to',
  'amzn.eu',
  'amzn.asia',
  'a.co',
  'adbl.co',
  'bit.ly',
  'buff.ly',
  'geni.us',
  'ow.ly',
  'tinyurl.com',
];

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

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

/** Where the client writes its few lines: the app's logger (pino), or the console without one. */
export interface ProviderLog {
  warn(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
}

const consoleLog: ProviderLog = {
  warn: (details, message) => console.warn(message, JSON.stringify(details)),
  info: (details, message) => console.info(message, JSON.stringify(details)),
};

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

export interface FollowOptions {
  /** Hosts of retailers whose URLs we can parse; the first hop landing on one ends the walk. */
  retailerHosts?: readonly string[];
  signal?: AbortSignal;
}

type Counters = Omit<ProviderCounters, 'breaker'>;
type Attempt =
  | { kind: 'ok'; response: Dispatcher.ResponseData }
  | { kind: 'retry'; error: OutboundError; retryAfterMs: number | null };

/** A provider failing since `since`: logged when it starts and when the provider answers again. */
interface Episode {
  since: number;
  failures: number;
}

const OUTCOME_OF: Readonly<Record<OutboundErrorCode, ProviderOutcome>> = {
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

/** The most of a refused answer's body read to tell a quota answer from another 429/403. */
const QUOTA_BODY_BYTES = 64 * 1024;

function hostMatches(hostname: string, hosts: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return hosts.some(
    (allowed) => host === allowed || host === `www.${allowed}` || host.endsWith(`.${allowed}`),
  );
}

function parseHttpUrl(raw: string, base?: URL): URL | null {
  try {
    const url = new URL(raw, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function isTimeout(signal: AbortSignal | undefined): boolean {
  return (
    signal?.aborted === true && signal.reason instanceof DOMException && signal.reason.name === 'TimeoutError'
  );
}

async function readLimited(body: Dispatcher.ResponseData['body'], maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      return null;
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** A refused answer's JSON body (a quota error explains itself there), or null; never throws. */
async function readJsonQuietly(body: Dispatcher.ResponseData['body']): Promise<unknown> {
  try {
    const bytes = await readLimited(body, QUOTA_BODY_BYTES);
    return bytes ? (JSON.parse(bytes.toString('utf8')) as unknown) : null;
  } catch {
    return null;
  }
}

export class HttpClient {
  private readonly origins: Set<string>;
  private readonly shortLinkHosts: readonly string[];
  private readonly breakers = new Map<string, CircuitBreaker>();
  private readonly counters = new Map<string, Counters>();
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly episodes = new Map<string, Episode>();
  /** Per provider, until when its spent budget has been logged (once per window). */
  private readonly budgetLogged = new Map<string, number>();
  private log: ProviderLog;

  constructor(private readonly options: HttpClientOptions) {
    this.origins = new Set(options.allowedOrigins.map((origin) => new URL(origin).origin));
    this.shortLinkHosts = options.shortLinkHosts ?? SHORT_LINK_HOSTS;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connections: 32 });
    this.log = options.log ?? consoleLog;
  }

  /** Sends the client's log lines to `log` from now on (the app's logger, once it exists). */
  logTo(log: ProviderLog): void {
    this.log = log;
  }

  /** GETs a JSON document; throws OutboundError on refusal, timeout, non-2xx or bad JSON. */
  async getJson(provider: string, url: string, options: CallOptions = {}): Promise<unknown> {
    const response = await this.call(provider, 'GET', url, options, 'application/json');
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
      this.countersOf(provider).failures += 1;
      this.settle(provider, 'bad_answer', failure);
      throw failure;
    }
    this.settle(provider, 'ok');
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
      const response = await this.call(provider, 'HEAD', url, options, 'image/*');
      await response.body.dump();
      this.settle(provider, 'ok');
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
    const result: Record<string, ProviderCounters> = {};
    for (const [provider, counters] of this.counters) {
      result[provider] = {
        ...counters,
        outcomes: { ...counters.outcomes },
        breaker: this.breaker(provider).state,
      };
    }
    return result;
  }

  breakerState(provider: string): BreakerState {
    return this.breaker(provider).state;
  }

  isAllowed(url: string): boolean {
    const parsed = parseHttpUrl(url);
    return parsed !== null && this.origins.has(parsed.origin);
  }

  /**
   * Follows a short link (amzn.to/…, a.co/…) to the retailer URL behind it, without reading any
   * body: at most five HEAD/GET hops, every one on a short-link host. Returns the first URL that
   * lands on a retailer host (never fetched), or null when a hop leaves the allowed hosts, the chain
   * is too long, or a host does not redirect.
   */
  async followShortLink(url: string, options: FollowOptions = {}): Promise<string | null> {
    const retailers = options.retailerHosts ?? [];
    let current = parseHttpUrl(url);
    for (let hop = 0; current && hop <= MAX_REDIRECTS; hop++) {
      if (hostMatches(current.hostname, retailers)) return current.href;
      if (hop === MAX_REDIRECTS || !hostMatches(current.hostname, this.shortLinkHosts)) return null;
      const location = await this.redirectTarget(current, options.signal);
      current = location ? parseHttpUrl(location, current) : null;
    }
    return null;
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  private async redirectTarget(url: URL, signal: AbortSignal | undefined): Promise<string | null> {
    const counters = this.countersOf('shortlink');
    counters.calls += 1;
    for (const method of ['HEAD', 'GET'] as const) {
      const timeout = AbortSignal.timeout(this.options.timeoutMs);
      try {
        const response = await request(url, {
          method,
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
          dispatcher: this.dispatcher,
          headers: { 'user-agent': this.userAgent() },
        });
        // The body of a redirect is never needed: drop it (any body beyond a byte closes the socket).
        await response.body.dump({ limit: 1 }).catch(() => undefined);
        const location = response.headers.location;
        if (REDIRECT_STATUSES.has(response.statusCode) && location) {
          return Array.isArray(location) ? (location[0] ?? null) : location;
        }
        // Some shorteners refuse HEAD; try once more with GET.
        if (method === 'HEAD' && (response.statusCode === 405 || response.statusCode === 501)) continue;
        return null;
      } catch (error) {
        counters.failures += 1;
        if (signal?.aborted) throw error;
        return null;
      }
    }
    return null;
  }

  private async call(
    provider: string,
    method: 'GET' | 'HEAD',
    url: string,
    options: CallOptions,
    accept: string,
  ): Promise<Dispatcher.ResponseData> {
    if (!this.isAllowed(url)) {
      throw new OutboundError(`${provider}: host not allowed: ${url}`, provider, 'host_not_allowed');
    }
    // A call its caller gave up on already is neither sent nor counted against the budget.
    options.signal?.throwIfAborted();
    const counters = this.countersOf(provider);
    const breaker = this.breaker(provider);
    if (!breaker.tryAcquire()) {
      counters.rejected += 1;
      this.count(provider, 'circuit_open');
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
      const response = await this.withRetries(provider, method, url, options, accept);
      breaker.success();
      return response;
    } catch (error) {
      if (!(error instanceof OutboundError)) {
        // The caller gave up (its own signal): no verdict on the provider.
        breaker.release();
      } else if (error.code === 'http_status' && !this.isServerFault(error.status)) {
        // A 404 or 400 is an answer, not an outage.
        breaker.success();
        this.settle(provider, 'http_4xx');
      } else if (error.code === 'quota') {
        // Asking again before the time it named would only be refused again: wait that long.
        counters.failures += 1;
        counters.quota += 1;
        breaker.openFor(error.retryAfterMs ?? 0);
        this.settle(provider, 'quota', error);
      } else {
        counters.failures += 1;
        if (error.code === 'timeout') counters.timeouts += 1;
        breaker.failure();
        this.settle(provider, OUTCOME_OF[error.code], error);
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
    this.countersOf(provider).budgetRefused += 1;
    if (failed) throw failed;
    this.count(provider, decision.scope === 'global' ? 'budget_global' : 'budget_address');
    if (decision.scope === 'global') this.logSpentBudget(provider, decision);
    throw new OutboundError(
      `${provider}: request budget spent (${decision.window.max} per ${decision.window.windowMs / 1000} s${decision.scope === 'address' ? ' for this client' : ''})`,
      provider,
      'budget_spent',
      null,
      { retryAfterMs: decision.retryAfterMs },
    );
  }

  private logSpentBudget(provider: string, decision: Extract<BudgetDecision, { allowed: false }>): void {
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
  private settle(provider: string, outcome: ProviderOutcome, error?: OutboundError): void {
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

  private count(provider: string, outcome: ProviderOutcome): void {
    const outcomes = this.countersOf(provider).outcomes;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }

  private async withRetries(
    provider: string,
    method: 'GET' | 'HEAD',
    url: string,
    options: CallOptions,
    accept: string,
  ): Promise<Dispatcher.ResponseData> {
    const retries = this.options.retries ?? 2;
    for (let attempt = 0; ; attempt++) {
      const result = await this.attempt(provider, method, url, options, accept);
      if (result.kind === 'ok') return result.response;
      if (attempt >= retries) throw result.error;
      await sleep(this.backoff(attempt, result.retryAfterMs), undefined, { signal: options.signal });
      // A retry is a request like any other: it needs room in the budget.
      await this.spend(provider, result.error, options.signal);
      this.countersOf(provider).retries += 1;
    }
  }

  private async attempt(
    provider: string,
    method: 'GET' | 'HEAD',
    url: string,
    options: CallOptions,
    accept: string,
  ): Promise<Attempt> {
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

  private countersOf(provider: string): Counters {
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
