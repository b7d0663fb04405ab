import { EventEmitter } from 'node:events';
import type { ProviderChain } from '../catalog/chain.js';
import type { HttpClient } from '../catalog/http-client.js';
import { LocalCatalogProvider } from '../catalog/local.js';
import { createProviderChain } from '../catalog/providers/index.js';
import type { Config } from '../config.js';
import type { Store } from '../store/db.js';
import { invalidateDestinationCache } from '../store/destinations.js';
import { BookCreator, type IsbnLookup } from './book-creator.js';
import { BookPages } from './book-pages.js';
import { type ClickRecorder, createClickRecorder } from './click-recorder.js';

/** Changes that cached pages must hear about: `book-changed` (slug) and `destinations-changed`. */
export type ChangeEvents = EventEmitter<{ 'book-changed': [slug: string]; 'destinations-changed': [] }>;

/** Everything the routes need, built once per process and closed on shutdown. */
export interface Services {
  config: Readonly<Config>;
  store: Store;
  local: LocalCatalogProvider;
  /** Remote metadata sources (Open Library, Google Books, iTunes) behind one outbound client. */
  providers: { chain: ProviderChain; client: HttpClient };
  creator: BookCreator;
  pages: BookPages;
  clicks: ClickRecorder;
  events: ChangeEvents;
  /** Extra readiness checks (Redis…) by name; the database is always checked. */
  readiness: Record<string, () => Promise<unknown>>;
  close(): Promise<void>;
}

export interface ServiceOverrides {
  remote?: IsbnLookup | null;
  clickFlushIntervalMs?: number;
}

export function createServices(
  config: Readonly<Config>,
  store: Store,
  overrides: ServiceOverrides = {},
): Services {
  const local = new LocalCatalogProvider(store.db);
  // The creator asks the local catalog itself first, so the chain holds only the remote sources.
  const providers = createProviderChain(config, store.db);
  const remote = overrides.remote === undefined ? providers.chain : overrides.remote;
  const pages = new BookPages(store.db, config);
  const events: ChangeEvents = new EventEmitter();
  events.on('book-changed', (slug) => pages.invalidate(slug));
  events.on('destinations-changed', () => {
    invalidateDestinationCache(store.db);
    pages.invalidateAll();
  });
  const clicks = createClickRecorder(store.db, { flushIntervalMs: overrides.clickFlushIntervalMs ?? 1000 });
  return {
    config,
    store,
    local,
    providers,
    creator: new BookCreator(store.db, local, remote),
    pages,
    clicks,
    events,
    readiness: {},
    close: async () => {
      await clicks.close();
      await providers.client.close();
    },
  };
}
