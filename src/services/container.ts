import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { ProviderChain } from '../catalog/chain.js';
import type { HttpClient } from '../catalog/http-client.js';
import { LocalCatalogProvider } from '../catalog/local.js';
import { createProviderChain } from '../catalog/providers/index.js';
import type { Config } from '../config.js';
import { ApiKeyDirectory } from '../store/api-keys.js';
import { UsageRecorder } from '../store/api-usage.js';
import type { Store } from '../store/db.js';
import { invalidateDestinationCache } from '../store/destinations.js';
import { AccessCodes } from './access-codes.js';
import { BookCreator, type IsbnLookup } from './book-creator.js';
import { BookPages } from './book-pages.js';
import { type ClickRecorder, createClickRecorder } from './click-recorder.js';
import { CoverFallback } from './cover-fallback.js';
import { PartnerDirectory } from './partners.js';
import { closeRedis, createRedis, type Redis } from './redis.js';
import { createResolver } from './resolve/wiring.js';
import type { Resolver } from './resolve.js';
import { SearchService, type TextSearchSource } from './search.js';
import { VisitCounter } from './visit-counter.js';

/** Changes that cached pages must hear about: `book-changed` (slug) and `destinations-changed`. */
export type ChangeEvents = EventEmitter<{ 'book-changed': [slug: string]; 'destinations-changed': [] }>;

/** Everything the routes need, built once per process and closed on shutdown. */
export interface Services {
  config: Readonly<Config>;
  store: Store;
  local: LocalCatalogProvider;
  /** Remote metadata sources (Open Library, Google Books, iTunes) behind one outbound client. */
  providers: { chain: ProviderChain; client: HttpClient };
  creator: BookCreator;
  search: SearchService;
  /** Retailer URLs (and client inputs) to one book: identifiers, providers, confident title search. */
  resolver: Resolver;
  pages: BookPages;
  /** Access-code cookies → the non-public destinations a visitor may see. */
  access: AccessCodes;
  covers: CoverFallback;
  clicks: ClickRecorder;
  /** `partner=<id>` → an active partner's tags (cached briefly). */
  partners: PartnerDirectory;
  /** Book-page visits by audience (reader, link preview, bot) and placement. */
  visits: VisitCounter;
  events: ChangeEvents;
  /** Shared counters (rate limits) when `REDIS_URL` is set; null means per-process state. */
  redis: Redis | null;
  /** Cached API key lookups; `revoke` here takes effect at once in this process. */
  apiKeys: ApiKeyDirectory;
  /** Aggregated API usage per day, key, source and route, written off the request path. */
  usage: UsageRecorder;
  /** Extra readiness checks (Redis…) by name; the database is always checked. */
  readiness: Record<string, () => Promise<unknown>>;
  close(): Promise<void>;
}

export interface ServiceOverrides {
  remote?: IsbnLookup | null;
  /** Provider text search for weak local results; defaults to the provider chain. */
  textSearch?: TextSearchSource | null;
  clickFlushIntervalMs?: number;
  /** A Redis client owned by the caller (tests use their own key prefix); null forces no Redis. */
  redis?: Redis | null;
  apiKeyCacheMs?: number;
  usageFlushIntervalMs?: number;
  /** Short-link hosts the resolver may follow (tests allow their local fake host). */
  shortLinkHosts?: readonly string[];
}

export function createServices(
  config: Readonly<Config>,
  store: Store,
  overrides: ServiceOverrides = {},
): Services {
  const local = new LocalCatalogProvider(store.db);
  // The creator asks the local catalog itself first, so the chain holds only the remote sources.
  const providers = createProviderChain(config, store.db);
  const remote = overrides.remote === undefined ? providers.chain : overrides.remote;
  const pages = new BookPages(store.db, config);
  const events: ChangeEvents = new EventEmitter();
  events.on('book-changed', (slug) => pages.invalidate(slug));
  events.on('destinations-changed', () => {
    invalidateDestinationCache(store.db);
    pages.invalidateAll();
  });
  const creator = new BookCreator(store.db, local, remote);
  const textSearch = overrides.textSearch === undefined ? providers.chain : overrides.textSearch;
  const clicks = createClickRecorder(store.db, { flushIntervalMs: overrides.clickFlushIntervalMs ?? 1000 });
  const visits = new VisitCounter(store.db, overrides.clickFlushIntervalMs ?? 5000);
  // A client made from REDIS_URL is closed with the services; an injected one belongs to the caller.
  const ownsRedis = overrides.redis === undefined && config.redisUrl !== null;
  const redis =
    overrides.redis !== undefined ? overrides.redis : config.redisUrl ? createRedis(config.redisUrl) : null;
  const apiKeys = new ApiKeyDirectory(store.db, { ttlMs: overrides.apiKeyCacheMs });
  const usage = new UsageRecorder(store.db, { flushIntervalMs: overrides.usageFlushIntervalMs });
  const search = new SearchService(store, local, creator, textSearch, {
    remoteTimeoutMs: Math.min(config.providerTimeoutMs, 1500),
  });
  const resolver = createResolver({
    db: store.db,
    creator,
    search,
    providers: providers.chain.providers,
    timeoutMs: config.providerTimeoutMs,
    shortLinkHosts: overrides.shortLinkHosts,
  });
  return {
    config,
    store,
    local,
    providers,
    creator,
    search,
    resolver,
    pages,
    // Tests and tools that build services directly get a secret for this process only.
    access: new AccessCodes(store.db, config.cookieSecret || randomBytes(32).toString('base64url')),
    covers: new CoverFallback(store.db, providers.chain, (slug) => events.emit('book-changed', slug)),
    clicks,
    partners: new PartnerDirectory(store.db),
    visits,
    events,
    redis,
    apiKeys,
    usage,
    readiness: redis ? { redis: () => redis.ping() } : {},
    close: async () => {
      await clicks.close();
      await visits.close();
      await usage.close();
      if (redis && ownsRedis) await closeRedis(redis);
      await providers.client.close();
      await resolver.close();
    },
  };
}
