import { HttpClient, SHORT_LINK_HOSTS } from '../../catalog/http-client.js';
import { GoogleBooksProvider } from '../../catalog/providers/googlebooks.js';
import { ItunesProvider } from '../../catalog/providers/itunes.js';
import { OpenLibraryProvider } from '../../catalog/providers/openlibrary.js';
import type { MetadataProvider } from '../../catalog/types.js';
import type { Db } from '../../store/schema.js';
import type { BookCreator } from '../book-creator.js';
import { Resolver } from '../resolve.js';
import type { EditionLookup } from './identifiers.js';
import type { ProviderTitleSource } from './provider-title.js';
import type { ConfidentTitleSearch } from './title-match.js';

export interface ResolverWiring {
  db: Db;
  creator: BookCreator;
  search: ConfidentTitleSearch | null;
  /** The configured remote providers; those that can look up an edition id are used. */
  providers: readonly MetadataProvider[];
  /** Provider text search for title-and-author URLs (the provider chain); null asks none. */
  providerTitles?: ProviderTitleSource | null;
  timeoutMs: number;
  /** Short-link hosts that may be followed (tests allow their local fake); default SHORT_LINK_HOSTS. */
  shortLinkHosts?: readonly string[];
}

/**
 * The store ids a provider can name an edition by: Open Library editions, OCLC numbers (WorldCat),
 * Goodreads and LibraryThing ids (Open Library's search fields), Google volumes, Apple Books ebook and
 * audiobook ids.
 */
export function editionLookups(providers: readonly MetadataProvider[]): EditionLookup[] {
  return providers.flatMap((provider): EditionLookup[] => {
    if (provider instanceof OpenLibraryProvider) {
      return [
        { scheme: 'ol_edition', lookup: (value, signal) => provider.lookupEdition(value, signal) },
        { scheme: 'worldcat', lookup: (value, signal) => provider.lookupOclc(value, signal) },
        {
          scheme: 'goodreads',
          lookup: (value, signal) => provider.lookupBySearchField('id_goodreads', value, signal),
        },
        {
          scheme: 'librarything',
          lookup: (value, signal) => provider.lookupBySearchField('id_librarything', value, signal),
        },
      ];
    }
    if (provider instanceof GoogleBooksProvider) {
      return [{ scheme: 'google_volume', lookup: (value, signal) => provider.lookupVolume(value, signal) }];
    }
    if (provider instanceof ItunesProvider) {
      // A storefront sells only some of Apple's products: the URL's own storefront is asked.
      return ['apple_books', 'apple_audiobook'].map((scheme) => ({
        scheme,
        lookup: (value: string, signal: AbortSignal, country: string | null) =>
          provider.lookupId(value, signal, country),
      }));
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
    providerTitles: wiring.providerTitles ?? null,
    shortLinks: client,
    shortLinkHosts,
    editionLookups: editionLookups(wiring.providers),
    timeoutMs: wiring.timeoutMs,
    close: () => client.close(),
  });
}
