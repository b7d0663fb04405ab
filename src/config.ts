import { isIP } from 'node:net';
import { ConfigError, type Env, knownNames, PROVIDER_NAMES, type ProviderName } from './config/base.js';
import {
  type BudgetedProvider,
  type BudgetWindow,
  budgetShare,
  type OfferSourceName,
  offerBudgets,
  offerSources,
  providerBudgets,
} from './config/budgets.js';

export { ConfigError, PROVIDER_NAMES, type ProviderName } from './config/base.js';
export {
  BUDGETED_PROVIDERS,
  type BudgetedProvider,
  type BudgetWindow,
  OFFER_SOURCE_NAMES,
  type OfferSourceName,
} from './config/budgets.js';

/**
 * Runtime configuration, read once from the environment, validated, typed and frozen.
 * Every variable is documented in README.md; a bad value stops the process with a clear message.
 */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  databaseUrl: string;
  /** PostgreSQL: statements prepared by name (DATABASE_PREPARED_STATEMENTS, on unless `off`). */
  databasePreparedStatements: boolean;
  redisUrl: string | null;
  /** Prepended to every Redis key and channel, so several deployments can share one Redis. */
  redisKeyPrefix: string;
  providers: readonly ProviderName[];
  openLibraryUrl: string;
  openLibraryCoversUrl: string;
  googleBooksUrl: string;
  itunesUrl: string;
  providerTimeoutMs: number;
  rateLimitAnon: number;
  rateLimitKeyed: number;
  /** Per-address caps on the rows anonymous visitors can add, per `writeLimitWindowMs` (issue 43). */
  writeLimits: Readonly<WriteLimitCaps>;
  /** `WRITE_LIMIT_WINDOW` (seconds): the fixed window the write caps count in. */
  writeLimitWindowMs: number;
  adminEmail: string | null;
  adminPassword: string | null;
  contactEmail: string | null;
  /** `DEFAULT_LANGUAGE`: reader pages' language when neither `?lang=`, the cookie nor Accept-Language names one of ours. */
  defaultLanguage: PageLanguage;
  /** false, a number of proxy hops, or the proxies' addresses and CIDR ranges (Fastify's trustProxy). */
  trustProxy: TrustProxy;
  affiliateTags: Readonly<Record<string, string>>;
  /** `DEFAULT_COUNTRY`: whose shops a reader gets when nothing tells their country (default US). */
  defaultCountry: string;
  /** Signs access-code cookies; empty when COOKIE_SECRET is unset (the server then keeps its own). */
  cookieSecret: string;
  /** METRICS_TOKEN: Bearer token for /metrics; null: /metrics answers only local, unproxied scrapes. */
  metricsToken: string | null;
  logLevel: string;
  /** `SEARCH_CACHE_MS`: how long a whole search answer is reused for the same query text; 0: never. */
  searchCacheMs: number;
  /** `PAGE_CACHE_MS`: how long a rendered book page (and the book it shows) is reused before it is rendered again. */
  pageCacheMs: number;
  /** The clicks' write-ahead journal directory (`CLICK_WAL_DIR`); null: clicks are buffered in memory only. */
  clickWalDir: string | null;
  /** `interval`: the journal is fsynced every 100 ms; `always`: before each redirect is answered. */
  clickWalFsync: 'always' | 'interval';
  /**
   * `REQUEST_TIMEOUT_MS`: a request whose headers and body have not all arrived by then is answered
   * 408 and its connection closed; a connection that neither reads nor writes for twice as long is
   * closed too (a client that stopped reading its answers).
   */
  requestTimeoutMs: number;
  /** `MAX_CONNECTIONS`: open connections at most; past it new ones are refused (and logged). */
  maxConnections: number;
  /** `SHUTDOWN_GRACE_MS`: how long SIGTERM lets requests in flight finish before closing their connections. */
  shutdownGraceMs: number;
  /**
   * `PROVIDER_BUDGET_<PROVIDER>`: the outbound requests each remote provider may be sent, shared by
   * every instance through Redis; each window must have room. An empty list: no budget.
   */
  providerBudgets: Readonly<Record<BudgetedProvider, readonly BudgetWindow[]>>;
  /** `PROVIDER_BUDGET_ADDRESS_SHARE`: the fraction of each window one client address may use. */
  providerBudgetShare: number;
  /**
   * `OFFER_SOURCES`: where prices and lending state are read from (issue 47), each only when
   * `PROVIDERS` names it too; `off`: none. The admin area can switch each one off as well.
   */
  offerSources: readonly OfferSourceName[];
  /** `OFFER_TTL` (seconds): an offer older than this is not shown and is read again (default a day). */
  offerTtlMs: number;
  /** `OFFER_BUDGET_<SOURCE>`: the offer requests each source may be sent, shared by every instance. */
  offerBudgets: Readonly<Record<OfferSourceName, readonly BudgetWindow[]>>;
}

/** Keys match the write kinds of `services/write-limits.ts`. */
export interface WriteLimitCaps {
  miss: number;
  feedback: number;
  vote: number;
  saved_event: number;
  list: number;
  list_book: number;
  book: number;
  click: number;
  search: number;
}

export type TrustProxy = false | number | readonly string[];

function integer(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${key} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function url(env: Env, key: string, fallback: string): string {
  const raw = env[key] || fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${key} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`${key} must use http or https, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const PRIVATE_PROXIES: readonly string[] = Object.freeze([...PROXY_NAMES]);

function proxyAddress(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits <= (version === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: whom to believe about the client's address in X-Forwarded-For. `false` (default):
 * nobody, the socket's address is the client. A number N: N proxies stand in front, so the client is
 * the N-th address from the right (the left-most ones are whatever the client sent). A list of
 * addresses or CIDR ranges (and `loopback`, `linklocal`, `uniquelocal`): those proxies are skipped from
 * the right and the first other address is the client. `true` is that list for every private network
 * (`loopback,linklocal,uniquelocal`): a proxy on the same host or network is believed, while whatever
 * a public client writes to the left of its own address is not.
 */
function trustProxy(env: Env): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  const lower = raw.toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(lower)) return false;
  if (['true', 'yes', 'on'].includes(lower)) return PRIVATE_PROXIES;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 20) throw new ConfigError(`TRUST_PROXY: at most 20 proxy hops, got "${raw}"`);
    return hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (!proxyAddress(entry)) {
      throw new ConfigError(
        `TRUST_PROXY must be true or false, a hop count, or proxy addresses/CIDRs separated by commas; "${entry}" is none of these`,
      );
    }
  }
  return Object.freeze(entries);
}

function providers(env: Env): ProviderName[] {
  const raw = env.PROVIDERS ?? PROVIDER_NAMES.join(',');
  return knownNames(
    raw,
    PROVIDER_NAMES,
    (name) => `PROVIDERS: unknown provider "${name}" (known: ${PROVIDER_NAMES.join(', ')})`,
  );
}

function defaultCountry(env: Env): string {
  const value = (env.DEFAULT_COUNTRY ?? '').trim();
  if (!value) return 'US';
  if (!/^[A-Za-z]{2}$/.test(value))
    throw new ConfigError(`DEFAULT_COUNTRY: a two-letter country code such as GB or DE, got "${value}"`);
  return value.toUpperCase();
}

/** `AFFILIATE_TAGS=amazon=mytag-20,bookshop=12345`: destination slug → the operator's tag. */
function affiliateTags(env: Env): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const pair of (env.AFFILIATE_TAGS ?? '').split(',')) {
    if (!pair.trim()) continue;
    const [slug, tag] = pair.split('=').map((part) => part.trim());
    if (!slug || !tag) throw new ConfigError(`AFFILIATE_TAGS: expected slug=tag pairs, got "${pair}"`);
    tags[slug] = tag;
  }
  return tags;
}

/** Caps per address and window (`WRITE_LIMIT_WINDOW`, an hour by default): generous for a shared NAT. */
function writeLimits(env: Env): WriteLimitCaps {
  const cap = (key: string, fallback: number) => integer(env, key, fallback, 1, 1_000_000);
  return Object.freeze({
    miss: cap('WRITE_LIMIT_MISSES', 20),
    feedback: cap('WRITE_LIMIT_FEEDBACK', 300),
    vote: cap('WRITE_LIMIT_VOTES', 100),
    saved_event: cap('WRITE_LIMIT_SAVED_EVENTS', 300),
    list: cap('WRITE_LIMIT_LISTS', 20),
    list_book: cap('WRITE_LIMIT_LIST_BOOKS', 300),
    book: cap('WRITE_LIMIT_BOOKS', 60),
    click: cap('WRITE_LIMIT_CLICKS', 10_000),
    search: cap('WRITE_LIMIT_SEARCHES', 5000),
  });
}

function databaseUrl(env: Env): string {
  const raw = env.DATABASE_URL || 'sqlite:./data/booklink.db';
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(raw)) {
    throw new ConfigError(`DATABASE_URL must be sqlite:<path> or postgres://…, got "${raw}"`);
  }
  return raw;
}

/** One of two words (`fallback` when unset); anything else stops the start with both named. */
function either<T extends string>(env: Env, name: string, fallback: T, other: T): T {
  const raw = env[name]?.trim() || fallback;
  if (raw !== fallback && raw !== other) {
    throw new ConfigError(`${name} must be ${fallback} or ${other}, got "${raw}"`);
  }
  return raw as T;
}

function redisKeyPrefix(env: Env): string {
  const raw = env.REDIS_KEY_PREFIX ?? 'booklink:';
  if (!/^[\w.:-]{1,64}$/.test(raw)) {
    throw new ConfigError(`REDIS_KEY_PREFIX must be 1 to 64 letters, digits or . : _ -, got "${raw}"`);
  }
  return raw;
}

/** Next to the SQLite file, `./data` on PostgreSQL; none for an in-memory database; `off` disables it. */
function clickWalDir(env: Env, database: string): string | null {
  const raw = env.CLICK_WAL_DIR?.trim();
  if (raw === 'off') return null;
  if (raw) return raw;
  if (!database.startsWith('sqlite:')) return './data/click-wal';
  const file = database.slice('sqlite:'.length);
  if (file === '' || file === ':memory:') return null;
  const slash = file.lastIndexOf('/');
  return `${slash >= 0 ? file.slice(0, slash) : '.'}/click-wal`;
}

/** The reader pages' languages (domain/reader-languages.ts has the same list; config.ts imports nothing). */
export const PAGE_LANGUAGES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'ja'] as const;
type PageLanguage = (typeof PAGE_LANGUAGES)[number];

function defaultLanguage(env: Env): PageLanguage {
  const raw = (env.DEFAULT_LANGUAGE ?? '').trim().toLowerCase();
  if (raw === '') return 'en';
  const known = PAGE_LANGUAGES.find((code) => code === raw);
  if (!known) {
    throw new ConfigError(`DEFAULT_LANGUAGE must be one of ${PAGE_LANGUAGES.join(', ')}`);
  }
  return known;
}

function cookieSecret(env: Env): string {
  const raw = env.COOKIE_SECRET ?? '';
  if (raw !== '' && raw.length < 32) throw new ConfigError('COOKIE_SECRET must be at least 32 characters');
  return raw;
}

function metricsToken(env: Env): string | null {
  const raw = env.METRICS_TOKEN ?? '';
  if (raw === '') return null;
  if (raw.length < 16 || /\s/.test(raw)) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters, without spaces');
  }
  return raw;
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const email = (key: string) => env[key]?.trim() || null;
  const database = databaseUrl(env);
  const enabledProviders = providers(env);
  const config: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl: url(env, 'BASE_URL', `http://localhost:${port}`),
    databaseUrl: database,
    databasePreparedStatements: either(env, 'DATABASE_PREPARED_STATEMENTS', 'on', 'off') === 'on',
    redisUrl: env.REDIS_URL || null,
    redisKeyPrefix: redisKeyPrefix(env),
    providers: enabledProviders,
    openLibraryUrl: url(env, 'OPENLIBRARY_URL', 'https://openlibrary.org'),
    openLibraryCoversUrl: url(env, 'OPENLIBRARY_COVERS_URL', 'https://covers.openlibrary.org'),
    googleBooksUrl: url(env, 'GOOGLE_BOOKS_URL', 'https://www.googleapis.com'),
    itunesUrl: url(env, 'ITUNES_URL', 'https://itunes.apple.com'),
    providerTimeoutMs: integer(env, 'PROVIDER_TIMEOUT_MS', 2500, 50, 60_000),
    searchCacheMs: integer(env, 'SEARCH_CACHE_MS', 30_000, 0, 600_000),
    pageCacheMs: integer(env, 'PAGE_CACHE_MS', 30_000, 100, 3_600_000),
    rateLimitAnon: integer(env, 'RATE_LIMIT_ANON', 20, 1, 1_000_000),
    rateLimitKeyed: integer(env, 'RATE_LIMIT_KEYED', 120, 1, 1_000_000),
    writeLimits: writeLimits(env),
    writeLimitWindowMs: integer(env, 'WRITE_LIMIT_WINDOW', 3600, 1, 7 * 86_400) * 1000,
    adminEmail: email('ADMIN_EMAIL'),
    adminPassword: env.ADMIN_PASSWORD || null,
    contactEmail: email('CONTACT_EMAIL'),
    defaultLanguage: defaultLanguage(env),
    trustProxy: trustProxy(env),
    affiliateTags: Object.freeze(affiliateTags(env)),
    defaultCountry: defaultCountry(env),
    cookieSecret: cookieSecret(env),
    metricsToken: metricsToken(env),
    logLevel: env.LOG_LEVEL || 'info',
    clickWalDir: clickWalDir(env, database),
    clickWalFsync: either(env, 'CLICK_WAL_FSYNC', 'interval', 'always'),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000),
    maxConnections: integer(env, 'MAX_CONNECTIONS', 10_000, 1, 1_000_000),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 60_000),
    providerBudgets: providerBudgets(env),
    providerBudgetShare: budgetShare(env),
    offerSources: Object.freeze(offerSources(env, enabledProviders)),
    offerTtlMs: integer(env, 'OFFER_TTL', 86_400, 60, 30 * 86_400) * 1000,
    offerBudgets: offerBudgets(env),
  };
  return Object.freeze(config);
}
