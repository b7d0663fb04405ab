import { type TagKind, tagKindOf } from '../domain/affiliate.js';
import { fillTemplate } from '../domain/links/templates.js';
import {
  type BookIdentifiers,
  type BookLink,
  type BookLinkInput,
  buildLinkGroups,
  type Destination,
  explicitUrlsFor,
  isAllowedRedirect,
  type LinkOverride,
  resolveLink,
} from '../domain/links.js';
import { type Offer, type OfferRead, offersByDestination } from '../domain/offers.js';
import { tagsWithPartner } from '../domain/partners.js';
import { destinationsFor, forCountry, switcherCountries } from '../domain/storefronts.js';
import { type Book, bookIdentifiers, editionsOfWork, findBookBySlug } from '../store/books.js';
import {
  bookLinksForBook,
  cachedActiveDestinations,
  findDestination,
  overridesForBook,
} from '../store/destinations.js';
import { offerReadsForBook, offersForBook } from '../store/offers.js';
import { publicDomainIdentifiersFor } from '../store/public-domain.js';
import type { Db } from '../store/schema.js';
import { canonicalEditionOf } from '../store/works.js';
import type { OperatorTags } from './affiliate-tags.js';
import { PageCache } from './page-cache.js';
import type { ActivePartner } from './partners.js';

export type { Book } from '../store/books.js';

/** Everything known about a book that its page and its `/go/` links are built from. */
export interface LoadedBook {
  book: Book;
  identifiers: BookIdentifiers;
  bookLinks: BookLink[];
  overrides: LinkOverride[];
  /** Editions of the book's work, the canonical one first. */
  editions: Book[];
  canonicalBookId: number | null;
  /** `/go/` targets already resolved for this load, by destination slug and access (hot path). */
  targets: Map<string, GoTarget>;
  /** Every stored offer of the book, all countries, fresh or not (issue 47). */
  offers: Offer[];
  /** When this load stops being reused (ms since the epoch): PAGE_CACHE_MS after it began. */
  until: number;
  /** When each offer source was last read for the book, per country. */
  offerReads: OfferRead[];
}

/** Which stored offers a reader may be shown now (the offer service's time to live). */
export type OfferFilter = (offers: readonly Offer[], country: string | null) => Offer[];

export interface GoTarget {
  book: Book;
  /** The storefront copy the link was built from (`country` set on a country storefront). */
  destination: Destination;
  url: string;
  /** Whose tag `url` carries, recorded with the click. */
  tag: TagKind;
  /** When the load it was resolved from stops being reused (`LoadedBook.until`). */
  until: number;
}

/** Told of every drop of loaded books: one book's slug, or null for all of them. */
export type DropListener = (slug: string | null) => void;

/**
 * Loads books for pages and redirects, with a short-lived in-process cache: a popular book's page
 * and its `/go/` links are served without touching the database. Admin edits call `invalidate`.
 */
export class BookPages {
  private readonly loaded: PageCache<Promise<LoadedBook | null>>;
  private readonly dropListeners: DropListener[] = [];

  constructor(
    private readonly db: Db,
    /** How long a loaded book is reused (PAGE_CACHE_MS). */
    private readonly cacheMs: number,
    /** The operator's tags (`AFFILIATE_TAGS` over the admin area's). */
    private readonly tags: OperatorTags,
    /** Fresh offers only: a stale price is never shown, nor its link used. */
    private readonly currentOffers: OfferFilter = () => [],
    /** Queues a background read of the book's missing or stale offers for a country; never waits. */
    private readonly wantOffers: (loaded: LoadedBook, country: string | null) => void = () => undefined,
  ) {
    this.loaded = new PageCache<Promise<LoadedBook | null>>(10_000, cacheMs);
  }

  load(slug: string): Promise<LoadedBook | null> {
    const cached = this.loaded.get(slug);
    if (cached) return cached;
    const loading = this.loadFresh(slug, Date.now() + this.cacheMs);
    this.loaded.set(slug, slug, loading);
    // Only found books stay cached: a book created a moment later must be seen at once.
    loading.then(
      (value) => value ?? this.loaded.invalidate(slug),
      () => this.loaded.invalidate(slug),
    );
    return loading;
  }

  private async loadFresh(slug: string, until: number): Promise<LoadedBook | null> {
    const book = await findBookBySlug(this.db, slug);
    if (!book) return null;
    const [stored, confirmed, bookLinks, overrides, editions, canonicalBookId, offers, offerReads] =
      await Promise.all([
        bookIdentifiers(this.db, book.id),
        // A public-domain catalog imported after the book was created still gives it its free copies.
        book.matchKey ? publicDomainIdentifiersFor(this.db, book.matchKey) : Promise.resolve({}),
        bookLinksForBook(this.db, book.id),
        overridesForBook(this.db, book.id),
        book.workId === null ? Promise.resolve([]) : editionsOfWork(this.db, book.workId),
        book.workId === null ? Promise.resolve(null) : canonicalEditionOf(this.db, { id: book.workId }),
        offersForBook(this.db, book.id),
        offerReadsForBook(this.db, book.id),
      ]);
    const identifiers = { ...confirmed, ...stored };
    // The work's page leads with its canonical edition (admin: "set canonical").
    const ordered = [...editions].sort(
      (a, b) => Number(b.id === canonicalBookId) - Number(a.id === canonicalBookId),
    );
    return {
      book,
      identifiers,
      bookLinks,
      overrides,
      editions: ordered,
      canonicalBookId,
      targets: new Map(),
      offers,
      offerReads,
      until,
    };
  }

  destinations(): Promise<Destination[]> {
    return cachedActiveDestinations(this.db);
  }

  /** The countries a reader can switch the page to: those the active destinations have shops for. */
  async countries(): Promise<string[]> {
    return switcherCountries(await this.destinations());
  }

  /**
   * Searches for an ISBN no catalogue knows (the unknown-ISBN page, issue 44): the reader's country's
   * first few public shops whose template takes an ISBN, and WorldCat. Straight to the store: there is
   * no book to count a `/go/` click for.
   */
  async isbnSearches(
    isbn: { isbn13: string; isbn10: string | null },
    country: string | null,
    shops = 4,
  ): Promise<Array<{ name: string; url: string }>> {
    const values: Record<string, string> = {
      isbn13: isbn.isbn13,
      ...(isbn.isbn10 ? { isbn10: isbn.isbn10 } : {}),
    };
    const usable = destinationsFor(await this.destinations(), country)
      .filter((destination) => destination.isPublic && /\{isbn1[03]\}/.test(destination.urlTemplate))
      .sort((a, b) => b.displayPriority - a.displayPriority);
    const pick = [
      ...usable.filter((destination) => destination.group === 'new').slice(0, shops),
      ...usable.filter((destination) => destination.slug === 'worldcat'),
    ];
    return pick.flatMap((destination) => {
      const url = fillTemplate(destination.urlTemplate, values);
      return url ? [{ name: destination.displayName, url }] : [];
    });
  }

  linkInput(loaded: LoadedBook, now = new Date(), country: string | null = null): BookLinkInput {
    return {
      book: loaded.book,
      identifiers: loaded.identifiers,
      bookLinks: loaded.bookLinks,
      overrides: loaded.overrides,
      now,
      offerUrls: this.offerUrls(loaded, country),
    };
  }

  /**
   * The offers a reader in `country` is shown now, by destination slug; missing or stale ones are
   * queued for a background read (the page, the links API and the embed all ask here).
   */
  offersFor(loaded: LoadedBook, country: string | null): Map<string, Offer> {
    this.wantOffers(loaded, country);
    return this.shownOffers(loaded, country);
  }

  private shownOffers(loaded: LoadedBook, country: string | null): Map<string, Offer> {
    return offersByDestination(this.currentOffers(loaded.offers, country));
  }

  private offerUrls(loaded: LoadedBook, country: string | null): Record<string, string> | undefined {
    if (loaded.offers.length === 0) return undefined;
    const urls: Record<string, string> = {};
    for (const [slug, offer] of this.shownOffers(loaded, country)) if (offer.url) urls[slug] = offer.url;
    return urls;
  }

  async groups(
    loaded: LoadedBook,
    options: {
      use?: string | null;
      top?: string[];
      access?: ReadonlySet<number>;
      country?: string | null;
      partner?: ActivePartner | null;
    },
  ) {
    const country = options.country ?? null;
    const destinations = destinationsFor(await this.destinations(), country);
    const operator = await this.tags.get();
    return buildLinkGroups(
      { ...this.linkInput(loaded, new Date(), country), destinations },
      {
        affiliateTags: tagsWithPartner(operator, options.partner?.tags ?? null),
        use: options.use ?? null,
        top: options.top ?? [],
        visitorAccessDestinationIds: options.access,
      },
    );
  }

  /**
   * Where `/go/{slug}/{destination}` leads: the same URL the page shows, and only if its host
   * belongs to that destination or to an override the operator set for this book.
   */
  async goTarget(
    slug: string,
    destinationSlug: string,
    access?: ReadonlySet<number>,
    country: string | null = null,
    partner: ActivePartner | null = null,
  ): Promise<GoTarget | null> {
    const loaded = await this.load(slug);
    if (!loaded) return null;
    const slugKey = destinationSlug.toLowerCase();
    const key = [slugKey, country ?? '', partner?.id ?? ''].join('|');
    // Building the URL costs more than the rest of a redirect; a load lives only seconds, so a
    // resolved target is reused for it. Access is checked on every request, never cached.
    const target =
      loaded.targets.get(key) ?? (await this.resolveTarget(loaded, slugKey, country, partner, key));
    if (!target) return null;
    if (!target.destination.isPublic && !access?.has(target.destination.id)) return null;
    return target;
  }

  private async resolveTarget(
    loaded: LoadedBook,
    destinationSlug: string,
    country: string | null,
    partner: ActivePartner | null,
    cacheKey: string,
  ): Promise<GoTarget | null> {
    const destinations = await this.destinations();
    const found =
      destinations.find((item) => item.slug === destinationSlug) ??
      (await findDestination(this.db, destinationSlug));
    // Not filtered by country (sellsIn): a link shown for `?country=GB` is followed by a reader
    // whose own country says otherwise, and the host check below still holds.
    if (!found?.isActive) return null;
    const destination = forCountry(found, country);
    const input = this.linkInput(loaded, new Date(), country);
    // A partner's tag changes only the tag: the host check below holds for its URL exactly as for ours.
    const operator = await this.tags.get();
    const affiliateTags = tagsWithPartner(operator, partner?.tags ?? null);
    const link = resolveLink(destination, input, { affiliateTags });
    if (!link || !isAllowedRedirect(link.url, destination, explicitUrlsFor(destination, input))) return null;
    const tag = tagKindOf(link.url, destination, operator, partner?.tags ?? null);
    const target = { book: loaded.book, destination, url: link.url, tag, until: loaded.until };
    // Only real targets are kept, so requests for made-up destinations cannot grow the map.
    loaded.targets.set(cacheKey, target);
    return target;
  }

  invalidate(slug: string): void {
    this.loaded.invalidate(slug);
    for (const listener of this.dropListeners) listener(slug);
  }

  invalidateAll(): void {
    this.loaded.clear();
    for (const listener of this.dropListeners) listener(null);
  }

  /**
   * Calls `listener` whenever loaded books are dropped (a book, offer, destination, tag or partner
   * change): what was built from them (the `/go/` replay's answers) must be dropped with them.
   */
  onDrop(listener: DropListener): void {
    this.dropListeners.push(listener);
  }
}
