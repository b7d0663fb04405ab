/** What every part of the configuration shares: its error, the environment's type, the providers' names. */

export const PROVIDER_NAMES = ['local', 'openlibrary', 'googlebooks', 'itunes'] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export type Env = Record<string, string | undefined>;

/**
 * A comma-separated list of names (PROVIDERS, OFFER_SOURCES), each one of `known`; a name that is not
 * throws the ConfigError `unknown` words for it.
 */
export function knownNames<T extends string>(
  raw: string,
  known: readonly T[],
  unknown: (name: string) => string,
): T[] {
  const isKnown = (name: string): name is T => (known as readonly string[]).includes(name);
  const names = raw
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.map((name) => {
    if (!isKnown(name)) throw new ConfigError(unknown(name));
    return name;
  });
}
