import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { Counter } from 'prom-client';
import type { TrustProxy } from '../config.js';
import type { Services } from '../services/container.js';
import { Connections, limitedServer } from './connections.js';
import { GoReplay } from './go-replay.js';
import { PageReplay, type TrustProxy as TrustedProxies } from './page-replay.js';
import apiKeys from './plugins/api-keys.js';
import errors, { clientErrorResponder, frameworkErrorResponder } from './plugins/errors.js';
import guards from './plugins/guards.js';
import language from './plugins/language.js';
import metrics from './plugins/metrics.js';
import openapi from './plugins/openapi.js';
import rateLimit from './plugins/rate-limit.js';
import { type LogStream, logOptions, requestIds, requestLog } from './request-log.js';
import { adminRoutes } from './routes/admin/index.js';
import { apiBookLinksRoutes } from './routes/api/book-links.js';
import { coverFallbackRoutes } from './routes/api/cover.js';
import { ingestRoutes } from './routes/api/ingest.js';
import { listRoutes } from './routes/api/lists.js';
import { apiResolveRoutes } from './routes/api/resolve.js';
import { apiSearchRoutes } from './routes/api/search.js';
import { searchFeedbackRoutes } from './routes/api/search-feedback.js';
import { accessRoutes } from './routes/pages/access.js';
import { bookPageRoutes } from './routes/pages/book-pages.js';
import { brandRoutes } from './routes/pages/brand.js';
import { countryRoutes } from './routes/pages/country.js';
import { discoveryRoutes } from './routes/pages/discovery.js';
import { embedRoutes } from './routes/pages/embed.js';
import { embedBuilderRoutes } from './routes/pages/embed-builder.js';
import { goRoutes } from './routes/pages/go.js';
import { homeRoutes } from './routes/pages/home.js';
import { isbnRoutes } from './routes/pages/isbn.js';
import { languageRoutes } from './routes/pages/language.js';
import { listPageRoutes } from './routes/pages/list-pages.js';
import { oembedRoutes } from './routes/pages/oembed.js';
import { operationsRoutes } from './routes/pages/operations.js';
import { qrRoutes } from './routes/pages/qr.js';
import { resolveRoutes } from './routes/pages/resolve.js';
import { savedRoutes } from './routes/pages/saved.js';
import { searchPageRoutes } from './routes/pages/search-page.js';
import { shelfRoutes } from './routes/pages/shelves.js';
import { staticRoutes } from './routes/pages/static.js';
import { int32Keyword } from './validation.js';

export interface AppOptions {
  services: Services;
  /** Where the JSON logs go, request lines included (stdout in server.ts, an array in tests); none without. */
  logger?: LogStream | false;
  /** SQLite's checkpoint thread's totals, for `/metrics` (server.ts; none on PostgreSQL or in memory). */
  checkpoints?: () => { runs: number; failures: number };
}

/** TRUST_PROXY as Fastify takes it: a hop count becomes "the first N hops are proxies", as Fastify does. */
function trustProxyOption(trust: TrustProxy): TrustedProxies {
  if (trust === false) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}

/** Builds the whole application as a Fastify instance; `server.ts` only listens and shuts down. */
export async function buildApp({
  services,
  logger = false,
  checkpoints,
}: AppOptions): Promise<FastifyInstance> {
  const { config } = services;
  const trustProxy = trustProxyOption(config.trustProxy);
  const nextRequestId = requestIds();
  const replay = new PageReplay({
    origin: new URL(config.baseUrl).origin,
    trustProxy,
    visits: services.visits,
    nextRequestId,
    pageTtlMs: config.pageCacheMs,
    defaultCountry: () => services.brand.defaultCountry(),
    defaultLanguage: () => services.brand.defaultLanguage(),
  });
  // Plain clicks of `/go/` links, answered before Fastify like book pages (go-replay.ts).
  const goReplay = new GoReplay({
    origin: new URL(config.baseUrl).origin,
    trustProxy,
    nextRequestId,
    defaultCountry: () => services.brand.defaultCountry(),
    writes: services.writes,
    clicks: services.clicks,
  });
  const connections = new Connections();
  const app = Fastify({
    // Node's server with the limits every connection lives under (connections.ts), and the book-page
    // and click replays in front of Fastify's handler.
    serverFactory: (handler) =>
      limitedServer(
        {
          requestTimeoutMs: config.requestTimeoutMs,
          maxConnections: config.maxConnections,
          onLimitReached: (refused, limit) =>
            app.log.warn(
              { refused, limit },
              `connection limit reached: ${limit} connections open, new ones refused (MAX_CONNECTIONS)`,
            ),
        },
        connections,
        (request, response) => {
          if (!replay.serve(request, response) && !goReplay.serve(request, response, handler))
            handler(request, response);
        },
      ),
    genReqId: nextRequestId,
    logger: logger ? logOptions(config.logLevel, logger) : false,
    // One log line per request, written when it completes (see below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy,
    bodyLimit: 1024 * 1024,
    clientErrorHandler: clientErrorResponder(config.baseUrl, () => services.brand.defaultLanguage()),
    frameworkErrors: frameworkErrorResponder(config.baseUrl, () => services.brand.defaultLanguage()),
    ajv: {
      customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false },
      plugins: [int32Keyword],
    },
    routerOptions: { maxParamLength: 2100 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // On close, Fastify ends the idle kept-alive connections once and answers later requests 503 with
  // "Connection: close"; a response still being written would leave its connection open and the
  // process waiting for the client or the keep-alive timeout (72 s under a stream of clicks).
  app.addHook('preClose', (done) => {
    connections.drain(app.server);
    done();
  });

  const requests = logger ? requestLog(logger, config.logLevel) : null;
  if (requests) {
    app.addHook('onResponse', (request, reply, done) => {
      requests.completed(request.id, request, reply.statusCode, reply.elapsedTime);
      done();
    });
  }
  await app.register(language, { fallback: () => services.brand.defaultLanguage() });
  await app.register(errors, { baseUrl: config.baseUrl, brand: () => services.brand.latest() });
  await app.register(guards, { baseUrl: config.baseUrl });
  await app.register(metrics, {
    // The offer reads' own client counts under its own names (offers-googlebooks, …).
    providers: () => ({ ...services.providers.client.stats(), ...services.offerClient.stats() }),
    providerBudget: services.providers.budget,
    clicks: () => services.clicks.stats(),
    usage: () => services.usage.stats(),
    searchLog: () => services.searchLog.stats(),
    searchCache: () => services.search.cacheStats(),
    searchesDeferred: () => services.search.deferredSearches(),
    writes: () => services.writes.stats(),
    pageReplays: () => replay.replayed,
    checkpoints,
    connections: () => connections.stats(),
    token: config.metricsToken,
  });
  // Provider failures, spent budgets and write caps reached by a private address (a proxy not
  // trusted) are logged with the requests, once the logger exists.
  if (logger) {
    services.providers.client.logTo(app.log);
    services.writes.logTo(app.log);
    services.offerClient.logTo(app.log);
  }
  await app.register(apiKeys, { apiKeys: services.apiKeys, usage: services.usage });
  const limits = { anonymous: config.rateLimitAnon, keyed: config.rateLimitKeyed };
  await app.register(rateLimit, { ...limits, redis: services.redis, breaker: services.redisBreaker });
  await app.register(openapi, {
    baseUrl: config.baseUrl,
    contactEmail: config.contactEmail,
    brand: () => services.brand.current(),
  });
  await app.register(operationsRoutes, { services });
  await app.register(discoveryRoutes, { services });
  await app.register(staticRoutes);
  await app.register(brandRoutes, { services });
  await app.register(isbnRoutes, { services });
  await app.register(languageRoutes, { services });
  await app.register(bookPageRoutes, { services, replay });
  await app.register(goRoutes, { services, replay: goReplay });
  await app.register(embedRoutes, { services });
  await app.register(embedBuilderRoutes, { services });
  await app.register(oembedRoutes, { services });
  await app.register(shelfRoutes, { services });
  await app.register(coverFallbackRoutes, { services });
  await app.register(searchPageRoutes, { services });
  await app.register(apiSearchRoutes, { services });
  await app.register(resolveRoutes, { services });
  await app.register(apiResolveRoutes, { services });
  await app.register(apiBookLinksRoutes, { services });
  await app.register(qrRoutes, { services });
  await app.register(searchFeedbackRoutes, { services });
  await app.register(homeRoutes, { services });
  await app.register(listRoutes, { services });
  await app.register(listPageRoutes, { services });
  await app.register(savedRoutes, { services });
  await app.register(accessRoutes, { services });
  await app.register(countryRoutes, { services });
  await app.register(ingestRoutes, { services });
  await app.register(adminRoutes, { services });
  replay.attach({ log: requests, observe: app.metrics.observe });
  goReplay.attach({ log: requests, observe: app.metrics.observe });
  new Counter({
    name: 'booklink_go_replays_total',
    help: 'Plain /go/ clicks answered from the click replay, before Fastify (also counted in the request metrics)',
    registers: [app.metrics.registry],
    collect() {
      this.reset();
      this.inc(goReplay.replayed);
    },
  });
  app.addHook('preClose', (done) => {
    replay.close();
    goReplay.close();
    done();
  });
  return app;
}
