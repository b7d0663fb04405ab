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
  /** The clicks' write-ahead journal directory (`CLICK_WAL_DIR`); null: clicks are buffered in memory only. */
  clickWalDir: string | null;
  /** `interval`: the journal is fsynced every 100 ms; `always`: before each redirect is answered. */
  clickWalFsync: 'always' | 'interval';
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

function clickWalFsync(env: Env): 'always' | 'interval' {
  const raw = env.CLICK_WAL_FSYNC?.trim() || 'interval';
  if (raw !== 'always' && raw !== 'interval') {
    throw new ConfigError(`CLICK_WAL_FSYNC must be always or interval, got "${raw}"`);
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
  const database = databaseUrl(env);
  const config: Config = {
    port,
    host: env.HOST || '0.0.0.0',
    baseUrl: url(env, 'BASE_URL', `http://localhost:${port}`),
    databaseUrl: database,
    redisUrl: env.REDIS_URL || null,
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
    clickWalDir: clickWalDir(env, database),
    clickWalFsync: clickWalFsync(env),
  };
  return Object.freeze(config);
}
