/** What every part of the configuration shares: its error, the environment's type, the providers' names. */

export const PROVIDER_NAMES = ['local', 'openlibrary', 'googlebooks', 'itunes'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;
