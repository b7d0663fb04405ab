import { ConfigError, type Env, knownNames, type ProviderName } from './base.js';

/**
 * The provider budgets (PROVIDER_BUDGET_*) and the offers' own (OFFER_SOURCES, OFFER_BUDGET_*):
 * requests per window, read from the environment (README's configuration table).
 */

/** The sources offers are read from (domain/offers.ts has the same list; config.ts imports nothing). */
export const OFFER_SOURCE_NAMES = ['googlebooks', 'itunes', 'openlibrary'] as const;
export type OfferSourceName = (typeof OFFER_SOURCE_NAMES)[number];

/** Offers are background work: well below the lookups' own budgets, which they never spend. */
const DEFAULT_OFFER_BUDGETS: Readonly<Record<OfferSourceName, string>> = {
  googlebooks: '10/min,500/day',
  itunes: '10/min',
  openlibrary: '30/min',
};

/** At most `max` requests in each fixed window of `windowMs` (aligned to the epoch, so instances agree). */
export interface BudgetWindow {
  max: number;
  windowMs: number;
}

/** The names the HTTP client counts requests under: the remote providers and Open Library's covers. */
export const BUDGETED_PROVIDERS = ['openlibrary', 'openlibrary-covers', 'googlebooks', 'itunes'] as const;
export type BudgetedProvider = (typeof BUDGETED_PROVIDERS)[number];

/**
 * Defaults below each public API's own limits: Open Library asks for a few requests a second at
 * most (3 with an identifying User-Agent), its covers service allows 100 ISBN lookups per 5 minutes
 * per address, Google Books gives a project 1,000 requests a day unless raised, and the iTunes
 * Search API about 20 a minute per address.
 */
const DEFAULT_BUDGETS: Readonly<Record<BudgetedProvider, string>> = {
  openlibrary: '120/min',
  'openlibrary-covers': '100/5min',
  googlebooks: '30/min,1000/day',
  itunes: '20/min',
};

const WINDOW_UNITS: Readonly<Record<string, number>> = {
  s: 1000,
  sec: 1000,
  second: 1000,
  min: 60_000,
  minute: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
};

/** `120/min`, `100/5min`, `30/min,1000/day`: requests per window; `off`: none. */
function budgetWindows(key: string, raw: string): BudgetWindow[] {
  const text = raw.replace(/\s+/g, '').toLowerCase();
  if (text === 'off') return [];
  return text.split(',').map((part) => {
    const match = /^(\d+)\/(\d*)([a-z]+?)s?$/.exec(part);
    const unit = match ? WINDOW_UNITS[match[3] ?? ''] : undefined;
    const max = Number(match?.[1]);
    const windowMs = (unit ?? Number.NaN) * Number(match?.[2] || 1);
    if (!(max >= 1 && max <= 10_000_000 && windowMs >= 1000 && windowMs <= 7 * 86_400_000)) {
      throw new ConfigError(
        `${key} must be "off" or requests per window such as 120/min, 100/5min or 30/min,1000/day (windows from 1 s to 7 days), got "${raw}"`,
      );
    }
    return { max, windowMs };
  });
}

export function providerBudgets(env: Env): Record<BudgetedProvider, readonly BudgetWindow[]> {
  const budgets = {} as Record<BudgetedProvider, readonly BudgetWindow[]>;
  for (const provider of BUDGETED_PROVIDERS) {
    const key = `PROVIDER_BUDGET_${provider.toUpperCase().replace('-', '_')}`;
    budgets[provider] = Object.freeze(budgetWindows(key, env[key] || DEFAULT_BUDGETS[provider]));
  }
  return Object.freeze(budgets);
}

export function offerSources(env: Env, enabled: readonly ProviderName[]): OfferSourceName[] {
  const raw = (env.OFFER_SOURCES ?? OFFER_SOURCE_NAMES.join(',')).trim().toLowerCase();
  if (raw === 'off' || raw === '') return [];
  const names = knownNames(
    raw,
    OFFER_SOURCE_NAMES,
    (name) => `OFFER_SOURCES: unknown source "${name}" (known: ${OFFER_SOURCE_NAMES.join(', ')}, or off)`,
  );
  return names.filter((name) => enabled.includes(name));
}

export function offerBudgets(env: Env): Record<OfferSourceName, readonly BudgetWindow[]> {
  const budgets = {} as Record<OfferSourceName, readonly BudgetWindow[]>;
  for (const source of OFFER_SOURCE_NAMES) {
    const key = `OFFER_BUDGET_${source.toUpperCase()}`;
    const windows = budgetWindows(key, env[key] || DEFAULT_OFFER_BUDGETS[source]);
    budgets[source] = Object.freeze(windows);
  }
  return Object.freeze(budgets);
}

export function budgetShare(env: Env): number {
  const raw = env.PROVIDER_BUDGET_ADDRESS_SHARE?.trim() || '0.25';
  const share = Number(raw);
  if (!(share > 0 && share <= 1)) {
    throw new ConfigError(
      `PROVIDER_BUDGET_ADDRESS_SHARE must be a fraction above 0 and at most 1, got "${raw}"`,
    );
  }
  return share;
}
