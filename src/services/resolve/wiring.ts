import { HttpClient, SHORT_LINK_HOSTS } from '../../catalog/http-client.js';
import { GoogleBooksProvider } from '../../catalog/providers/googlebooks.js';
import { OpenLibraryProvider } from '../../catalog/providers/openlibrary.js';
import type { MetadataProvider } from '../../catalog/types.js';
import type { Db } from '../../store/schema.js';
import type { BookCreator } from '../book-creator.js';
import { Resolver } from '../resolve.js';
import type { EditionLookup } from './identifiers.js';
import type { ConfidentTitleSearch } from './title-match.js';

export interface ResolverWiring {
  db: Db;
  creator: BookCreator;
  search: ConfidentTitleSearch | null;
  /** The configured remote providers; those that can look up an edition id are used. */
  providers: readonly MetadataProvider[];
  timeoutMs: number;
  /** Short-link hosts that may be followed (tests allow their local fake); default SHORT_LINK_HOSTS. */
  shortLinkHosts?: readonly string[];
}

/** Open Library editions and Google volumes can be named by id; other sources cannot. */
export function editionLookups(providers: readonly MetadataProvider[]): EditionLookup[] {
  return providers.flatMap((provider): EditionLookup[] => {
    if (provider instanceof OpenLibraryProvider) {
      return [{ scheme: 'ol_edition', lookup: (value, signal) => provider.lookupEdition(value, signal) }];
    }
    if (provider instanceof GoogleBooksProvider) {
      return [{ scheme: 'google_volume', lookup: (value, signal) => provider.lookupVolume(value, signal) }];
    }
    return [];
  });
}

/**
 * The production resolver. Short links get a client of their own that may reach no provider
 * origin at all (an empty allow-list): its only power is the bounded short-link walk.
 */
export function createResolver(wiring: ResolverWiring): Resolver {
  const shortLinkHosts = wiring.shortLinkHosts ?? SHORT_LINK_HOSTS;
  const client = new HttpClient({ allowedOrigins: [], timeoutMs: wiring.timeoutMs, shortLinkHosts });
  return new Resolver({
    db: wiring.db,
    creator: wiring.creator,
    search: wiring.search,
    shortLinks: client,
    shortLinkHosts,
    editionLookups: editionLookups(wiring.providers),
    timeoutMs: wiring.timeoutMs,
    close: () => client.close(),
  });
}
