import type { Config } from '../../config.js';
import { providerMissCache } from '../../store/provider-misses.js';
import type { Db } from '../../store/schema.js';
import { ProviderChain, type ProviderChainOptions } from '../chain.js';
import { createHttpClient, type HttpClient } from '../http-client.js';
import type { ProviderBudget } from '../provider-budget.js';
import type { MetadataProvider } from '../types.js';
import { GoogleBooksProvider } from './googlebooks.js';
import { ItunesProvider } from './itunes.js';
import { OpenLibraryProvider } from './openlibrary.js';

export { GoogleBooksProvider } from './googlebooks.js';
export { ItunesProvider } from './itunes.js';
export { OpenLibraryProvider } from './openlibrary.js';

type ProviderConfig = Pick<
  Config,
  | 'providers'
  | 'openLibraryUrl'
  | 'openLibraryCoversUrl'
  | 'googleBooksUrl'
  | 'itunesUrl'
  | 'providerTimeoutMs'
>;

/**
 * The providers named in `config.providers`, in that order (the order of trust). `local` is only
 * included when its provider is passed in; all remote ones share `client` (one allow-list, one set
 * of breakers and counters).
 */
export function buildProviders(
  config: ProviderConfig,
  localProvider?: MetadataProvider,
  client: HttpClient = createHttpClient(config),
): MetadataProvider[] {
  const providers: MetadataProvider[] = [];
  for (const name of config.providers) {
    if (name === 'local') {
      if (localProvider) providers.push(localProvider);
    } else if (name === 'openlibrary') {
      const coversUrl = config.openLibraryCoversUrl;
      providers.push(new OpenLibraryProvider({ baseUrl: config.openLibraryUrl, coversUrl, client }));
    } else if (name === 'googlebooks') {
      providers.push(new GoogleBooksProvider({ baseUrl: config.googleBooksUrl, client }));
    } else {
      providers.push(new ItunesProvider({ baseUrl: config.itunesUrl, client }));
    }
  }
  return providers;
}

export interface ProviderWiring {
  chain: ProviderChain;
  /** For /metrics (`client.stats()`) and shutdown (`client.close()`). */
  client: HttpClient;
  /** What every request the client sends is counted against; null: no provider has a budget. */
  budget: ProviderBudget | null;
}

/**
 * The production wiring: one HTTP client, the configured providers, and a chain whose negative
 * cache lives in the database. Pass `localProvider` only if the chain should ask the local catalog.
 */
export function createProviderChain(
  config: ProviderConfig,
  db: Db,
  localProvider?: MetadataProvider,
  options: Omit<ProviderChainOptions, 'missCache' | 'timeoutMs'> & { budget?: ProviderBudget | null } = {},
): ProviderWiring {
  const { budget = null, ...chainOptions } = options;
  const client = createHttpClient(config, { budget });
  const providers = buildProviders(config, localProvider, client);
  const chain = new ProviderChain(providers, {
    ...chainOptions,
    timeoutMs: config.providerTimeoutMs,
    missCache: providerMissCache(db),
  });
  return { chain, client, budget };
}
