import type { ProviderChain } from '../catalog/chain.js';
import { GoogleBooksProvider } from '../catalog/providers/googlebooks.js';
import { ItunesProvider } from '../catalog/providers/itunes.js';
import { OpenLibraryProvider } from '../catalog/providers/openlibrary.js';
import { onBehalfOf, type Requester } from '../catalog/requester.js';
import type { MetadataProvider } from '../catalog/types.js';
import type { Isbn } from '../domain/isbn.js';
import { coverOfBook, setBookCover } from '../store/book-matches.js';
import type { Db } from '../store/schema.js';
import { PageCache } from './page-cache.js';

export interface CoverFound {
  coverUrl: string;
  source: 'googlebooks' | 'openlibrary' | 'itunes';
}

export interface CoverRequest {
  isbn: Isbn;
  slug: string | null;
  title: string | null;
  /** The client address the providers are asked for (its share of their budgets). */
  requester?: Requester;
}

const TIMEOUT_MS = 3000;
const DAY_MS = 24 * 60 * 60 * 1000;

function pick<T extends MetadataProvider>(
  providers: readonly MetadataProvider[],
  type: new (...args: never[]) => T,
) {
  return providers.find((provider): provider is T => provider instanceof type) ?? null;
}

/**
 * Finds a replacement cover when the primary one loaded blank or tiny (SPEC 4.2): Google Books, then
 * the Open Library covers service (probed: a missing cover is a 404 there, a placeholder is tiny),
 * then a media-store search by title. Outcomes are cached a day per ISBN, misses included.
 */
export class CoverFallback {
  private readonly cache = new PageCache<Promise<CoverFound | null>>(20_000, DAY_MS);

  constructor(
    private readonly db: Db,
    private readonly chain: ProviderChain,
    private readonly onBookChanged: (slug: string) => void,
  ) {}

  async find(request: CoverRequest): Promise<CoverFound | null> {
    const key = request.isbn.isbn13;
    let pending = this.cache.get(key);
    if (!pending) {
      pending = this.search(request);
      this.cache.set(key, key, pending);
      pending.catch(() => this.cache.invalidate(key));
    }
    const found = await pending;
    if (found && request.slug) await this.updateBook(request.slug, request.isbn.isbn13, found.coverUrl);
    return found;
  }

  private async search(request: CoverRequest): Promise<CoverFound | null> {
    const current = request.slug ? await this.currentCover(request.slug) : null;
    const usable = (url: string | null | undefined): url is string => Boolean(url) && url !== current;
    const signal = onBehalfOf(request.requester, AbortSignal.timeout(TIMEOUT_MS));
    const { providers } = this.chain;
    const google = pick(providers, GoogleBooksProvider);
    const fromGoogle = await google?.lookupIsbn(request.isbn, signal).catch(() => null);
    if (usable(fromGoogle?.coverUrl)) return { coverUrl: fromGoogle.coverUrl, source: 'googlebooks' };
    const openLibrary = pick(providers, OpenLibraryProvider);
    const fromOpenLibrary = await openLibrary?.coverForIsbn(request.isbn.isbn13, signal).catch(() => null);
    if (usable(fromOpenLibrary)) return { coverUrl: fromOpenLibrary, source: 'openlibrary' };
    const itunes = pick(providers, ItunesProvider);
    if (itunes && request.title) {
      const results = await itunes
        .search({ text: request.title, title: request.title, limit: 5 }, signal)
        .catch(() => []);
      const match = results.find((record) => usable(record.coverUrl));
      if (match?.coverUrl) return { coverUrl: match.coverUrl, source: 'itunes' };
    }
    return null;
  }

  private async currentCover(slug: string): Promise<string | null> {
    return coverOfBook(this.db, slug);
  }

  /** Only the book the ISBN belongs to is updated: a slug alone must not rewrite another book's cover. */
  private async updateBook(slug: string, isbn13: string, coverUrl: string): Promise<void> {
    if (await setBookCover(this.db, slug, isbn13, coverUrl)) this.onBookChanged(slug);
  }
}
