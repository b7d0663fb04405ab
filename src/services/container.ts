import { randomBytes } from 'node:crypto';
import type { ProviderChain } from '../catalog/chain.js';
import type { CircuitBreaker } from '../catalog/circuit-breaker.js';
import { createHttpClient, type HttpClient } from '../catalog/http-client.js';
import { LocalCatalogProvider } from '../catalog/local.js';
import { OFFER_CLIENT_NAMES, OfferReader } from '../catalog/offers.js';
import { MemoryProviderBudget, type ProviderBudget } from '../catalog/provider-budget.js';
import { createProviderChain } from '../catalog/providers/index.js';
import type { Config } from '../config.js';
import type { Store } from '../store/db.js';
import { invalidateDestinationCache } from '../store/destinations.js';
import { checkDatabaseWrites, pingDatabase } from '../store/health.js';
import { AccessCodes } from './access-codes.js';
import { type AdminServices, createAdminServices } from './admin/admin.js';
import { OperatorTags } from './affiliate-tags.js';
import { ApiKeyDirectory } from './api-keys.js';
import { UsageRecorder } from './api-usage.js';
import { BookCreator, type IsbnLookup } from './book-creator.js';
import { BookLinksService } from './book-links.js';
import { BookPages } from './book-pages.js';
import { BrandSettings } from './brand.js';
import { ChangeEvents } from './change-events.js';
import { type ChangeRelay, changesChannel, relayChanges } from './change-relay.js';
import type { ClickJournal } from './click-journal.js';
import { type Click, type ClickRecorder, createClickRecorder, deadLetterPath } from './click-recorder.js';
import { CoverFallback } from './cover-fallback.js';
import { Embeds } from './embeds.js';
import { FairTurns } from './fair-turns.js';
import { Ingest } from './ingest.js';
import { Lists } from './lists.js';
import { OEmbedSubjects } from './oembed.js';
import { OfferService } from './offers.js';
import { PartnerDirectory } from './partners.js';
import { createProviderBudget, SharedProviderBudget } from './provider-budget.js';
import { reusedCheck } from './readiness.js';
import { closeRedis, createRedis, createRedisBreaker, type Redis, throughBreaker } from './redis.js';
import { createResolver } from './resolve/wiring.js';
import type { Resolver } from './resolve.js';
import { SavedBooks } from './saved-books.js';
import { SearchLogRecorder } from './search/log.js';
import { searchAnswerCache, type TextSearchSource } from './search/providers.js';
import { SearchResultCache } from './search/results.js';
import { type SearchOutcome, SearchService } from './search/service.js';
import { SearchVocabulary } from './search/vocabulary.js';
import { SearchSignals } from './search-signals.js';
import { Shelves } from './shelves.js';
import { Sitemap } from './sitemap.js';
import { VisitCounter } from './visit-counter.js';
import { CreationAllowance, type MayCreate, WriteLimits, type Writer } from './write-limits.js';

// What the HTTP layer's plugins need from the store, handed on here: http/ never imports store/.
export type { ApiKeyIdentity } from '../store/api-keys.js';
export { isDatabaseUnavailable } from '../store/errors.js';
export type { ApiKeyDirectory } from './api-keys.js';
export { type UsageRecorder, type UsageRecorderStats, usageSource } from './api-usage.js';
export { ChangeEvents } from './change-events.js';
export type { MayCreate, WriteLimitStats, Writer } from './write-limits.js';

/** How long one write check's outcome answers `/readyz` (a full disk shows within this). */
const WRITE_CHECK_INTERVAL_MS = 2000;

/** Everything the routes need, built once per process and closed on shutdown. */
export interface Services {
  config: Readonly<Config>;
  local: LocalCatalogProvider;
  /** Remote metadata sources (Open Library, Google Books, iTunes) behind one outbound client. */
  providers: { chain: ProviderChain; client: HttpClient; budget: ProviderBudget | null };
  creator: BookCreator;
  search: SearchService;
  /** The API's search log, buffered and written once a second (and on close). */
  searchLog: SearchLogRecorder;
  /** Clicks, misses and votes readers send about searches. */
  signals: SearchSignals;
  saved: SavedBooks;
  /** Partner lists sent to the ingest API. */
  ingest: Ingest;
  sitemap: Sitemap;
  /** Retailer URLs (and client inputs) to one book: identifiers, providers, confident title search. */
  resolver: Resolver;
  pages: BookPages;
  /** A book's grouped links with their `/go/` URLs (the links API). */
  bookLinks: BookLinksService;
  /** The book (by slug or ISBN) and public links an embed shows. */
  embeds: Embeds;
  /** The book or list an oEmbed URL names. */
  oembeds: OEmbedSubjects;
  /** Prices and lending state on the book page's buttons, read in the background (issue 47). */
  offers: OfferService;
  /** The offer reads' own outbound client (their budgets and breakers apart from the lookups'). */
  offerClient: HttpClient;
  /** Access-code cookies → the non-public destinations a visitor may see. */
  access: AccessCodes;
  covers: CoverFallback;
  clicks: ClickRecorder;
  /** `partner=<id>` → an active partner's tags (cached briefly). */
  partners: PartnerDirectory;
  /** Book-page visits by audience (reader, link preview, bot) and placement. */
  visits: VisitCounter;
  /** Cache-invalidating changes; relayed to every instance through Redis when `REDIS_URL` is set. */
  events: ChangeEvents;
  /** The cross-instance relay of `events`, or null without Redis. */
  changeRelay: ChangeRelay | null;
  /** Shared counters (rate limits) when `REDIS_URL` is set; null means per-process state. */
  redis: Redis | null;
  /** Every Redis command goes through it: a hung Redis costs a few timeouts, then none. */
  redisBreaker: CircuitBreaker | null;
  /** Cached API key lookups; `revoke` here takes effect at once in this process. */
  apiKeys: ApiKeyDirectory;
  /** Aggregated API usage per day, key, source and route, written off the request path. */
  usage: UsageRecorder;
  /**
   * Optional dependencies by name (Redis…), reported by `/readyz` but never making it fail: the
   * service works without them. The database is always checked and is the one that fails readiness.
   */
  readiness: Record<string, () => Promise<unknown>>;
  /** Resolves when the database answers; `/readyz` fails on it. */
  pingDatabase(): Promise<void>;
  /** Resolves when the database takes a write (checked at most every few seconds); `/readyz` reports it. */
  checkDatabaseWrites(): Promise<void>;
  /** Per-address caps on the rows anonymous visitors can add (misses, votes, lists, new books…). */
  writes: WriteLimits;
  /** What a visitor may create: nothing when automated, else its `writer`'s allowance of new books. */
  creationAllowance(automated: boolean, writer: Writer): MayCreate;
  /** Reader lists without accounts (API, list pages, home page, QR codes). */
  lists: Lists;
  /** Series, author and popular-book shelves. */
  shelves: Shelves;
  /** The operator's brand (name, logo, accent, texts, default language and country), cached. */
  brand: BrandSettings;
  /** The operator's area (`/admin`): every admin read and command. */
  admin: AdminServices;
  close(): Promise<void>;
}

export interface ServiceOverrides {
  remote?: IsbnLookup | null;
  /** Provider text search for weak local results; defaults to the provider chain. */
  textSearch?: TextSearchSource | null;
  clickFlushIntervalMs?: number;
  /** This process's click journal (opened by the server under `CLICK_WAL_DIR`, after the replay). */
  clickJournal?: ClickJournal<Click> | null;
  /** A Redis client owned by the caller (tests use their own key prefix); null forces no Redis. */
  redis?: Redis | null;
  apiKeyCacheMs?: number;
  usageFlushIntervalMs?: number;
  /** How often the API's search log is written (default 1 s). */
  searchLogFlushIntervalMs?: number;
  /** Short-link hosts the resolver may follow (tests allow their local fake host). */
  shortLinkHosts?: readonly string[];
}

export function createServices(
  config: Readonly<Config>,
  store: Store,
  overrides: ServiceOverrides = {},
): Services {
  const local = new LocalCatalogProvider(store.db);
  // A client made from REDIS_URL is closed with the services; an injected one belongs to the caller.
  const ownsRedis = overrides.redis === undefined && config.redisUrl !== null;
  const redis =
    overrides.redis !== undefined
      ? overrides.redis
      : config.redisUrl
        ? createRedis(config.redisUrl, { keyPrefix: config.redisKeyPrefix })
        : null;
  const redisBreaker = redis ? createRedisBreaker() : null;
  // The creator asks the local catalog itself first, so the chain holds only the remote sources.
  // Every request they send is counted against the providers' budgets (shared through Redis).
  const providers = createProviderChain(config, store.db, undefined, {
    budget: createProviderBudget(config, redis, redisBreaker),
  });
  const remote = overrides.remote === undefined ? providers.chain : overrides.remote;
  const operatorTags = new OperatorTags(store.db, config.affiliateTags);
  const events = new ChangeEvents();
  const { offers, offerClient } = createOffers(config, store, events, redis, redisBreaker);
  const pages = new BookPages(
    store.db,
    config.pageCacheMs,
    operatorTags,
    (list, country) => offers.current(list, country),
    (loaded, country) =>
      offers.want(
        { ...loaded.book, appleAudiobookId: loaded.identifiers.apple_audiobook ?? null },
        loaded.offerReads,
        country,
      ),
  );
  events.on('book-changed', (slug) => pages.invalidate(slug));
  events.on('offers-changed', (slug) => pages.invalidate(slug));
  // Affiliate tag edits emit this too: the resolved /go/ targets and rendered pages carry tags.
  events.on('destinations-changed', () => {
    invalidateDestinationCache(store.db);
    operatorTags.invalidate();
    offers.settingsChanged();
    pages.invalidateAll();
  });
  // A new book stands for its catalog entry in search answers: every instance drops its cached answers.
  const creator = new BookCreator(store, local, remote, () => events.emit('catalog-changed'));
  const textSearch = overrides.textSearch === undefined ? providers.chain : overrides.textSearch;
  const clicks = createClickRecorder(store.db, {
    flushIntervalMs: overrides.clickFlushIntervalMs ?? 1000,
    journal: overrides.clickJournal ?? null,
    deadLetterFile: config.clickWalDir ? deadLetterPath(config.clickWalDir) : null,
  });
  const visits = new VisitCounter(store.db, overrides.clickFlushIntervalMs ?? 5000);
  const writes = new WriteLimits({
    caps: config.writeLimits,
    windowMs: config.writeLimitWindowMs,
    redis,
    breaker: redisBreaker,
  });
  const apiKeys = new ApiKeyDirectory(store.db, { ttlMs: overrides.apiKeyCacheMs });
  events.on('api-keys-changed', () => apiKeys.clear());
  const changeRelay = redis ? relayChanges(events, redis, changesChannel(redis)) : null;
  const usage = new UsageRecorder(store.db, { flushIntervalMs: overrides.usageFlushIntervalMs });
  const searchLog = new SearchLogRecorder(store.db, { flushIntervalMs: overrides.searchLogFlushIntervalMs });
  const search = new SearchService(store, local, creator, textSearch, {
    log: searchLog,
    results: config.searchCacheMs > 0 ? new SearchResultCache<SearchOutcome>(config.searchCacheMs) : null,
    remoteTimeoutMs: Math.min(config.providerTimeoutMs, 1500),
    isbnLookup: remote,
    vocabulary: new SearchVocabulary(store),
    cache: searchAnswerCache(redis),
    turns: new FairTurns(),
  });
  // Whatever may change an answer drops them all: answers are cheap to recompute, tags are not.
  events.on('book-changed', () => search.invalidate());
  // An import that ended elsewhere listed the catalog's words anew: corrections read them again.
  events.on('catalog-changed', () => search.catalogChanged());
  const resolver = createResolver({
    db: store.db,
    creator,
    search,
    providers: providers.chain.providers,
    providerTitles: textSearch,
    timeoutMs: config.providerTimeoutMs,
    shortLinkHosts: overrides.shortLinkHosts,
  });
  events.on('book-changed', () => resolver.forget());
  events.on('catalog-changed', () => resolver.forget());
  // Tests and tools that build services directly get a secret for this process only.
  const access = new AccessCodes(store.db, config.cookieSecret || randomBytes(32).toString('base64url'));
  events.on('access-codes-changed', () => access.invalidate());
  const partners = new PartnerDirectory(store.db);
  const brand = new BrandSettings(store.db, config.contactEmail, {
    language: config.defaultLanguage,
    country: config.defaultCountry,
  });
  events.on('brand-changed', () => brand.invalidate());
  const lists = new Lists(store.db, writes);
  const admin = createAdminServices({
    db: store.db,
    events,
    finder: { creator, resolver },
    partnersChanged: () => {
      partners.clear();
      pages.invalidateAll();
    },
    affiliateEnvironment: config.affiliateTags,
    brand,
    offerSources: config.offerSources,
  });
  return {
    config,
    local,
    providers,
    creator,
    search,
    searchLog,
    signals: new SearchSignals(store.db, writes),
    saved: new SavedBooks(store.db, writes),
    ingest: new Ingest(store.db, creator),
    sitemap: new Sitemap(store.db),
    lists,
    writes,
    creationAllowance: (automated, writer) =>
      automated ? false : writer === null ? true : new CreationAllowance(writes, writer),
    shelves: new Shelves(store),
    brand,
    admin,
    pingDatabase: () => pingDatabase(store.db),
    checkDatabaseWrites: reusedCheck(() => checkDatabaseWrites(store.db), WRITE_CHECK_INTERVAL_MS),
    resolver,
    pages,
    bookLinks: new BookLinksService(pages, partners, config.baseUrl),
    embeds: new Embeds(pages, creator),
    oembeds: new OEmbedSubjects(pages, lists),
    offers,
    offerClient,
    access,
    covers: new CoverFallback(store.db, providers.chain, (slug) => events.emit('book-changed', slug)),
    clicks,
    partners,
    visits,
    events,
    changeRelay,
    redis,
    redisBreaker,
    apiKeys,
    usage,
    readiness: redis && redisBreaker ? { redis: () => throughBreaker(redisBreaker, () => redis.ping()) } : {},
    close: async () => {
      offers.close();
      await clicks.close();
      await searchLog.close();
      await visits.close();
      await usage.close();
      await changeRelay?.close();
      if (redis && ownsRedis) await closeRedis(redis);
      await providers.client.close();
      await offerClient.close();
      await resolver.close();
    },
  };
}

/**
 * The offer reads: their own outbound client, whose requests count against the offer budgets
 * (`OFFER_BUDGET_*`, in Redis when there is one, so every instance shares them) under names of
 * their own, so they never spend the lookups' budget nor open the lookups' circuit.
 */
function createOffers(
  config: Readonly<Config>,
  store: Store,
  events: ChangeEvents,
  redis: Redis | null,
  redisBreaker: CircuitBreaker | null,
): { offers: OfferService; offerClient: HttpClient } {
  const limits: Record<string, readonly { max: number; windowMs: number }[]> = {};
  for (const source of config.offerSources) limits[OFFER_CLIENT_NAMES[source]] = config.offerBudgets[source];
  // Offer reads are the server's own work: no client address, the whole window is theirs.
  const policy = { limits, addressShare: 1 };
  const budget =
    redis && redisBreaker
      ? new SharedProviderBudget(redis, redisBreaker, policy)
      : new MemoryProviderBudget(policy);
  // No retries: a failed read is asked again later, and a retry would spend the budget twice.
  const offerClient = createHttpClient(config, { budget, retries: 0 });
  const reader = new OfferReader({
    client: offerClient,
    googleBooksUrl: config.googleBooksUrl,
    itunesUrl: config.itunesUrl,
    openLibraryUrl: config.openLibraryUrl,
    timeoutMs: config.providerTimeoutMs,
  });
  const offers = new OfferService({
    db: store.db,
    reader,
    sources: config.offerSources,
    ttlMs: config.offerTtlMs,
    changed: (slug) => events.emit('offers-changed', slug),
    onError: (error) => console.error('offer read failed', error),
  });
  return { offers, offerClient };
}
