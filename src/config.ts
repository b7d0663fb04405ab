/**
 * Runtime configuration, read once from the environment, validated, typed and frozen.
 * Every variable is documented in README.md; a bad value stops the process with a clear message.
 */
export interface Config {
  port: number;
  host: string;
  baseUrl: string;
  databaseUrl: string;
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
  adminEmail: string | null;
  adminPassword: string | null;
  contactEmail: string | null;
  trustProxy: boolean;
  affiliateTags: Readonly<Record<string, string>>;
  /** Signs access-code cookies; empty when COOKIE_SECRET is unset (the server then keeps its own). */
  cookieSecret: string;
  logLevel: string;
}

export const PROVIDER_NAMES = ['local', 'openlibrary', 'googlebooks', 'itunes'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

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

function boolean(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${key} must be true or false, got "${env[key]}"`);
}

function providers(env: Env): ProviderName[] {
  const raw = env.PROVIDERS ?? PROVIDER_NAMES.join(',');
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!(PROVIDER_NAMES as readonly string[]).includes(name)) {
      throw new ConfigError(`PROVIDERS: unknown provider "${name}" (known: ${PROVIDER_NAMES.join(', ')})`);
    }
  }
  return names as ProviderName[];
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

function databaseUrl(env: Env): string {
  const raw = env.DATABASE_URL || 'sqlite:./data/booklink.db';
  if (!/^(sqlite:|postgres(ql)?:\/\/)/.test(raw)) {
    throw new ConfigError(`DATABASE_URL must be sqlite:<path> or postgres://…, got "${raw}"`);
  }
  return raw;
}

function redisKeyPrefix(env: Env): string {
  const raw = env.REDIS_KEY_PREFIX ?? 'booklink:';
  if (!/^[\w.:-]{1,64}$/.test(raw)) {
    throw new ConfigError(`REDIS_KEY_PREFIX must be 1 to 64 letters, digits or . : _ -, got "${raw}"`);
  }
  return raw;
}

function cookieSecret(env: Env): string {
  const raw = env.COOKIE_SECRET ?? '';
  if (raw !== '' && raw.length < 32) throw new ConfigError('COOKIE_SECRET must be at least 32 characters');
  return raw;
}

export function loadConfig(env: Env = process.env): Readonly<Config> {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const email = (key: string) => env[key]?.trim() || null;
  const config: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl: url(env, 'BASE_URL', `http://localhost:${port}`),
    databaseUrl: databaseUrl(env),
    redisUrl: env.REDIS_URL || null,
    redisKeyPrefix: redisKeyPrefix(env),
    providers: providers(env),
    openLibraryUrl: url(env, 'OPENLIBRARY_URL', 'https://openlibrary.org'),
    openLibraryCoversUrl: url(env, 'OPENLIBRARY_COVERS_URL', 'https://covers.openlibrary.org'),
    googleBooksUrl: url(env, 'GOOGLE_BOOKS_URL', 'https://www.googleapis.com'),
    itunesUrl: url(env, 'ITUNES_URL', 'https://itunes.apple.com'),
    providerTimeoutMs: integer(env, 'PROVIDER_TIMEOUT_MS', 2500, 50, 60_000),
    rateLimitAnon: integer(env, 'RATE_LIMIT_ANON', 20, 1, 1_000_000),
    rateLimitKeyed: integer(env, 'RATE_LIMIT_KEYED', 120, 1, 1_000_000),
    adminEmail: email('ADMIN_EMAIL'),
    adminPassword: env.ADMIN_PASSWORD || null,
    contactEmail: email('CONTACT_EMAIL'),
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    affiliateTags: Object.freeze(affiliateTags(env)),
    cookieSecret: cookieSecret(env),
    logLevel: env.LOG_LEVEL || 'info',
  };
  return Object.freeze(config);
}
