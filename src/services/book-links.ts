import { createHash } from 'node:crypto';
import { goPath } from '../domain/go-links.js';
import type { DestinationGroup } from '../domain/groups.js';
import type { Offer } from '../domain/offers.js';
import { normalisePartnerId, normaliseSrc } from '../domain/partners.js';
import type { Book } from '../store/books.js';
import type { BookPages } from './book-pages.js';
import type { PartnerDirectory } from './partners.js';

export interface BookLinksRequest {
  /** The storefront country already decided (`?country=`, CDN header or language), or null. */
  country: string | null;
  /** `partner=` as given; malformed, unknown or inactive ids are ignored. */
  partner?: string | null;
  /** The caller's API key: without `partner=`, the partner linked to this key applies. */
  apiKeyId?: number | null;
  /** `src=` placement word, carried into the `/go/` URLs. */
  src?: string | null;
  /** Non-public destinations the caller holds an access code for. */
  access?: ReadonlySet<number>;
}

export interface BookLinkEntry {
  destination: string;
  name: string;
  group: DestinationGroup;
  /** The curated link's label ("Signed edition"), or null. */
  label: string | null;
  /** Absolute `/go/` URL: counts the click, applies the tags (the partner's where it has one). */
  url: string;
  featured: boolean;
  /** `product`: the book's own page at the store; `search`: a search there for it. */
  kind: 'product' | 'search';
  /** The store's price or the library's lending state for this country, as last read (fresh only). */
  offer: Offer | null;
}

export interface BookLinkGroup {
  group: DestinationGroup;
  title: string;
  links: BookLinkEntry[];
}

export interface BookLinks {
  book: Book;
  country: string | null;
  /** The partner whose tags apply, or null when none was given or it is unknown or inactive. */
  partner: string | null;
  groups: BookLinkGroup[];
  /** A strong validator of everything above, for `ETag`. */
  etag: string;
}

/**
 * A book's destinations as its page shows them for a country, grouped and ordered by the same builder
 * (`BookPages.groups`), each with its `/go/` URL. The links API answers from this.
 */
export class BookLinksService {
  constructor(
    private readonly pages: BookPages,
    private readonly partners: PartnerDirectory,
    private readonly baseUrl: string,
  ) {}

  /** Null when there is no book at `slug`. */
  async forBook(slug: string, request: BookLinksRequest): Promise<BookLinks | null> {
    const loaded = await this.pages.load(slug);
    if (!loaded) return null;
    const partner = await this.partners.forApiCall(request.partner, request.apiKeyId ?? null);
    const groups = await this.pages.groups(loaded, {
      access: request.access,
      country: request.country,
      partner,
    });
    const offers = this.pages.offersFor(loaded, request.country);
    // The partner id travels as given (well-formed only), or the key's partner: /go/ checks it again on
    // every click.
    const go = {
      partner: normalisePartnerId(request.partner) ?? partner?.id ?? null,
      src: normaliseSrc(request.src),
    };
    const result = groups.map((group) => ({
      group: group.group,
      title: group.title,
      links: group.links.map((link) => ({
        destination: link.destination.slug,
        name: link.destination.displayName,
        group: link.destination.group,
        label: link.label,
        url:
          this.baseUrl +
          goPath(loaded.book.slug, link.destination.slug, {
            // A store's own link from an offer is the reader's country's, like a storefront's.
            country:
              link.destination.country ?? (offers.get(link.destination.slug)?.url ? request.country : null),
            ...go,
          }),
        featured: link.featured,
        kind: link.kind,
        offer: offers.get(link.destination.slug) ?? null,
      })),
    }));
    const etag = createHash('sha256')
      .update(JSON.stringify([loaded.book.slug, loaded.book.updatedAt, request.country, partner?.id, result]))
      .digest('base64url')
      .slice(0, 27);
    return {
      book: loaded.book,
      country: request.country,
      partner: partner?.id ?? null,
      groups: result,
      etag,
    };
  }
}
