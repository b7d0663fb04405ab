import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { ProviderCounters } from '../../catalog/http-client.js';
import type { BudgetPolicy, BudgetStats } from '../../catalog/provider-budget.js';
import type { ClickRecorderStats } from '../../services/click-recorder.js';
import type { UsageRecorderStats, WriteLimitStats } from '../../services/container.js';
import type { SearchLogStats } from '../../services/search/log.js';
import type { ResultCacheStats } from '../../services/search/results.js';
import type { ConnectionStats } from '../connections.js';
import { HttpError } from '../errors.js';
import { RequestMetrics } from '../request-metrics.js';

export interface AppMetrics {
  registry: Registry;
  rateLimitRejections: Counter<'client'>;
  /** Counts one answered request and its time (the page replay answers outside Fastify's hooks). */
  observe(method: string, route: string, status: number, seconds: number): void;
}

/** Running totals kept by their owners, read at scrape time. */
export interface MetricsSources {
  /** Outbound calls per provider (`services.providers.client.stats`). */
  providers?: () => Record<string, ProviderCounters>;
  /** The provider budget's limits and its store's fallbacks (`services.providers.budget`). */
  providerBudget?: { policy: BudgetPolicy; stats(): BudgetStats } | null;
  /** Click recorder totals (`services.clicks.stats`). */
  clicks?: () => ClickRecorderStats;
  /** API usage recorder totals (`services.usage.stats`). */
  usage?: () => UsageRecorderStats;
  /** The API's buffered search log (`services.searchLog.stats`). */
  searchLog?: () => SearchLogStats;
  /** Search answers served from the result cache (`services.search.cacheStats`). */
  searchCache?: () => ResultCacheStats;
  /** Searches that waited for a later turn of the event loop (`services.search.deferredSearches`). */
  searchesDeferred?: () => number;
  /** Book-page visits answered by the page replay, before Fastify (`PageReplay.replayed`). */
  pageReplays?: () => number;
  /** Anonymous writes refused past their cap and repeats merged, by kind (`services.writes.stats`). */
  writes?: () => WriteLimitStats;
  /** SQLite's WAL checkpoints run by their thread (`Checkpoints.stats`); absent on PostgreSQL. */
  checkpoints?: () => { runs: number; failures: number };
  /** Connections closed or refused by the server's limits (`Connections.stats`). */
  connections?: () => ConnectionStats;
}

interface MetricsOptions extends MetricsSources {
  /** METRICS_TOKEN: `/metrics` answers only `Authorization: Bearer <token>`; null: only local scrapes. */
  token?: string | null;
}

/** Every field a running total, except `pending` (the backlog). */
type RecorderStats<Field extends string> = Readonly<Record<Field | 'pending', number>>;

declare module 'fastify' {
  interface FastifyInstance {
    metrics: AppMetrics;
  }
}

const PROVIDER_FIELDS = ['calls', 'failures', 'timeouts', 'retries', 'rejected', 'quota'] as const;
const BREAKER_VALUE = { closed: 0, 'half-open': 0.5, open: 1 } as const;

/**
 * Provider calls, failures, timeouts, retries and circuit-breaker refusals by provider. The values
 * live in the HTTP client's own tally and are copied at scrape time, so the outbound path keeps one
 * plain increment and /metrics can never drift from it.
 */
export function registerProviderMetrics(
  registry: Registry,
  stats: () => Record<string, ProviderCounters>,
): void {
  for (const field of PROVIDER_FIELDS) {
    new Counter({
      name: `booklink_provider_${field}_total`,
      help: `Metadata provider requests: ${field}`,
      labelNames: ['provider'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [provider, counters] of Object.entries(stats())) this.inc({ provider }, counters[field]);
      },
    });
  }
  new Counter({
    name: 'booklink_provider_outcomes_total',
    help: 'Metadata provider calls by outcome: ok, http_4xx (answers), http_5xx, quota, timeout, network, bad_answer (failures), circuit_open, budget_global, budget_address (not sent)',
    labelNames: ['provider', 'outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [provider, counters] of Object.entries(stats())) {
        for (const [outcome, count] of Object.entries(counters.outcomes))
          this.inc({ provider, outcome }, count);
      }
    },
  });
  new Gauge({
    name: 'booklink_provider_circuit_state',
    help: 'Provider circuit breaker: 0 closed, 0.5 half-open, 1 open (calls refused)',
    labelNames: ['provider'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [provider, counters] of Object.entries(stats())) {
        this.set({ provider }, BREAKER_VALUE[counters.breaker]);
      }
    },
  });
}

/** The configured budgets (requests per window, per provider) and the fallbacks of their shared store. */
export function registerBudgetMetrics(
  registry: Registry,
  budget: { policy: BudgetPolicy; stats(): BudgetStats },
): void {
  const budgets = new Gauge({
    name: 'booklink_provider_budget_requests',
    help: 'Provider budget: requests allowed per window (all instances together), by provider and window length',
    labelNames: ['provider', 'window_seconds'],
    registers: [registry],
  });
  for (const [provider, windows] of Object.entries(budget.policy.limits)) {
    for (const window of windows)
      budgets.set({ provider, window_seconds: window.windowMs / 1000 }, window.max);
  }
  new Gauge({
    name: 'booklink_provider_budget_address_share',
    help: 'Provider budget: the fraction of each window one client address may use',
    registers: [registry],
  }).set(budget.policy.addressShare);
  new Counter({
    name: 'booklink_provider_budget_local_decisions_total',
    help: 'Provider budget decisions taken in this process alone because Redis could not be asked',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(budget.stats().localFallbacks);
    },
  });
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** A buffered recorder's totals (recorded, flushed, dropped…) as counters and its backlog as a gauge. */
export function registerRecorderMetrics<Field extends string>(
  registry: Registry,
  prefix: string,
  stats: () => RecorderStats<Field>,
): void {
  const fields = Object.keys(stats()).filter((key): key is Field => key !== 'pending');
  for (const field of fields) {
    new Counter({
      name: `${prefix}_${snakeCase(field)}_total`,
      help: `${prefix}: ${field}`,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(stats()[field]);
      },
    });
  }
  new Gauge({
    name: `${prefix}_pending`,
    help: `${prefix}: waiting to be written`,
    registers: [registry],
    collect() {
      this.set(stats().pending);
    },
  });
}

/** The search result cache: hits, misses and clears as counters, the answers held as a gauge. */
export function registerSearchCacheMetrics(registry: Registry, stats: () => ResultCacheStats): void {
  for (const field of ['hits', 'misses', 'clears'] as const) {
    new Counter({
      name: `booklink_search_cache_${field}_total`,
      help: `Search result cache: ${field}`,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(stats()[field]);
      },
    });
  }
  new Gauge({
    name: 'booklink_search_cache_entries',
    help: 'Search result cache: answers held',
    registers: [registry],
    collect() {
      this.set(stats().entries);
    },
  });
}

/** Per-address write caps (issue 43): refusals and merged repeats by kind, and writes counted without Redis. */
export function registerWriteLimitMetrics(registry: Registry, stats: () => WriteLimitStats): void {
  const byKind = {
    refused: [
      'booklink_write_refusals_total',
      'Anonymous writes refused (429, nothing stored) past their per-address cap',
    ],
    duplicates: [
      'booklink_write_duplicates_total',
      'Anonymous writes that repeated one made in the window: stored once',
    ],
  } as const;
  for (const [field, [name, help]] of Object.entries(byKind) as [
    keyof typeof byKind,
    readonly [string, string],
  ][]) {
    new Counter({
      name,
      help,
      labelNames: ['kind'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [kind, count] of Object.entries(stats()[field])) this.inc({ kind }, count);
      },
    });
  }
  new Counter({
    name: 'booklink_write_limit_local_total',
    help: 'Anonymous writes counted by this process alone while Redis was down or failing',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(stats().countedLocally);
    },
  });
}

/** The route pattern, never the raw URL: one series per route however many books are asked for. */
const routeOf = (request: FastifyRequest) => request.routeOptions.url ?? 'unmatched';

/**
 * Prometheus `/metrics` (text format): requests and latency by method, route pattern and status class,
 * rate-limit rejections, provider calls, recorder backlogs and the process's own metrics. Each app
 * has its own registry, so several apps in one process (tests) do not mix their numbers.
 */
const digest = (text: string) => createHash('sha256').update(text).digest();
const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

/**
 * Who may read `/metrics`. With a token: whoever sends it as a Bearer token (compared in constant
 * time). Without one: only a scraper on this host talking to the server directly, that is from a
 * loopback socket with no forwarding header (a reverse proxy on the same host adds one).
 */
export function metricsAccess(token: string | null) {
  const expected = token ? digest(token) : null;
  return (request: FastifyRequest): boolean => {
    if (expected) {
      const header = request.headers.authorization ?? '';
      const sent = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      return sent !== '' && timingSafeEqual(digest(sent), expected);
    }
    const local = LOOPBACK.test(request.socket.remoteAddress ?? '');
    return local && FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
  };
}

async function metricsPlugin(app: FastifyInstance, sources: MetricsOptions) {
  const mayRead = metricsAccess(sources.token ?? null);
  const registry = new Registry();
  // The loop's delay sampled every millisecond, not prom-client's 10: a 5 ms stall between two 10 ms
  // samples went unseen, and an idle process read 10 ms of "delay" (docs/security.md).
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 1 });
  const requests = new RequestMetrics();
  const rateLimitRejections = new Counter({
    name: 'booklink_rate_limit_rejections_total',
    help: 'API requests refused with 429, by client kind (anonymous or keyed)',
    labelNames: ['client'],
    registers: [registry],
  });
  if (sources.providers) registerProviderMetrics(registry, sources.providers);
  if (sources.providerBudget) registerBudgetMetrics(registry, sources.providerBudget);
  if (sources.clicks) registerRecorderMetrics(registry, 'booklink_clicks', sources.clicks);
  if (sources.usage) registerRecorderMetrics(registry, 'booklink_api_usage', sources.usage);
  if (sources.searchLog) registerRecorderMetrics(registry, 'booklink_search_log', sources.searchLog);
  if (sources.searchCache) registerSearchCacheMetrics(registry, sources.searchCache);
  const searchesDeferred = sources.searchesDeferred;
  if (searchesDeferred) {
    new Counter({
      name: 'booklink_search_deferred_total',
      help: 'Searches that waited for a later turn of the event loop, which was busy with others (FairTurns)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(searchesDeferred());
      },
    });
  }
  if (sources.writes) registerWriteLimitMetrics(registry, sources.writes);
  const replays = sources.pageReplays;
  if (replays)
    new Counter({
      name: 'booklink_page_replays_total',
      help: 'Plain book-page visits answered from the page replay, before Fastify (also counted in the request metrics)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(replays());
      },
    });
  const checkpoints = sources.checkpoints;
  if (checkpoints) {
    const fields = { runs: 'run', failures: 'that failed' } as const;
    for (const [field, what] of Object.entries(fields) as [keyof typeof fields, string][]) {
      new Counter({
        name:
          field === 'runs'
            ? 'booklink_sqlite_checkpoints_total'
            : 'booklink_sqlite_checkpoint_failures_total',
        help: `SQLite WAL checkpoints ${what}, by the checkpoint thread`,
        registers: [registry],
        collect() {
          this.reset();
          this.inc(checkpoints()[field]);
        },
      });
    }
  }
  const connections = sources.connections;
  if (connections)
    new Counter({
      name: 'booklink_connections_closed_total',
      help: 'Connections the server closed or refused: owing too many pipelined answers, or at MAX_CONNECTIONS',
      labelNames: ['reason'],
      registers: [registry],
      collect() {
        this.reset();
        const stats = connections();
        this.inc({ reason: 'answers_owed' }, stats.closedOwingTooMuch);
        this.inc({ reason: 'connection_limit' }, stats.refusedAtLimit);
      },
    });
  const observe = requests.observe.bind(requests);
  app.decorate('metrics', { registry, rateLimitRejections, observe });
  app.addHook('onResponse', (request, reply, done) => {
    observe(request.method, routeOf(request), reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayRead(request)) {
      if (sources.token) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new HttpError(401, 'metrics_token', 'The metrics need an Authorization: Bearer token.');
      }
      // Without a token the endpoint does not exist for anyone but a local scraper.
      throw new HttpError(404, 'not_found', 'There is nothing at this address.');
    }
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(`${await registry.metrics()}\n${requests.text()}`);
  });
}

export default fp(metricsPlugin, { name: 'booklink-metrics' });
