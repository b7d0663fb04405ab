import type { Requester } from '../catalog/requester.js';
import { parseIsbn } from '../domain/isbn.js';
import type { LinkGroup } from '../domain/links.js';
import type { Offer } from '../domain/offers.js';
import type { BookCreator } from './book-creator.js';
import type { BookPages, LoadedBook } from './book-pages.js';
import type { MayCreate } from './write-limits.js';

/** What an embed (script or iframe) shows: the book and its public link groups for one storefront. */
export interface EmbedContent {
  loaded: LoadedBook;
  groups: LinkGroup[];
  /** Fresh offers for the storefront country, by destination slug. */
  offers: ReadonlyMap<string, Offer>;
}

/** A partner id as `/go/` takes it; anything else is dropped (an unknown partner is never an error). */
const PARTNER_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function cleanPartnerId(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed && PARTNER_ID.test(trimmed) ? trimmed : null;
}

/**
 * Finds the book an embed names, by slug or by ISBN. An ISBN the service has no page for yet is
 * created the way `/isbn/{isbn}` creates it: for a reader's browser, never for an automated client.
 * Access codes never apply: an embed sits on someone else's page and shows public destinations only.
 */
export class Embeds {
  constructor(
    private readonly pages: BookPages,
    private readonly creator: BookCreator,
  ) {}

  async load(
    book: string,
    options: { country: string | null; mayCreate: MayCreate; requester?: Requester },
  ): Promise<EmbedContent | null> {
    const loaded = await this.loadBySlugOrIsbn(book, options.mayCreate, options.requester ?? null);
    if (!loaded) return null;
    const groups = await this.pages.groups(loaded, { country: options.country, access: new Set() });
    return { loaded, groups, offers: this.pages.offersFor(loaded, options.country) };
  }

  private async loadBySlugOrIsbn(
    book: string,
    mayCreate: MayCreate,
    requester: Requester,
  ): Promise<LoadedBook | null> {
    const bySlug = await this.pages.load(book);
    if (bySlug) return bySlug;
    const isbn = parseIsbn(book);
    if (!isbn) return null;
    const outcome = await this.creator.byIsbn(isbn, mayCreate, requester);
    if (outcome.kind !== 'existing' && outcome.kind !== 'created') return null;
    return this.pages.load(outcome.book.slug);
  }
}
