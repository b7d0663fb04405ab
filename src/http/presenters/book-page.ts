import { goPath as goLink } from '../../domain/go-links.js';
import type { LinkGroup } from '../../domain/links.js';
import { formatPrice, type Offer } from '../../domain/offers.js';
import { seriesPosition } from '../../domain/series.js';
import { countryName } from '../../domain/storefronts.js';
import type { Book, LoadedBook } from '../../services/book-pages.js';
import { currentLanguage, t } from '../i18n/context.js';
import type {
  BookPageModel,
  BookView,
  CountryView,
  EditionView,
  LinkGroupView,
  OfferView,
  PageTemplate,
} from '../views/models.js';

export function bookView(book: Book): BookView {
  return {
    id: book.id,
    slug: book.slug,
    title: book.title,
    subtitle: book.subtitle,
    authors: book.authors,
    coverUrl: book.coverUrl,
    isbn13: book.isbn13,
    isbn10: book.isbn10,
    publishedDate: book.publishedDate,
    publisher: book.publisher,
    format: book.format,
    language: book.language,
    pages: book.pages,
    description: book.description,
  };
}

export function goPath(
  slug: string,
  destinationSlug: string,
  sfid: number | null,
  country: string | null = null,
  carry: { partner?: string | null; src?: string | null } = {},
): string {
  return goLink(slug, destinationSlug, { sfid, country, ...carry });
}

/** The edition's format on a print shop's product link: an ebook store's page is another edition's. */
function editionFormat(group: string, kind: string, format: string | null): string | null {
  return kind === 'product' && format && (group === 'new' || group === 'used') ? format : null;
}

/** One date formatter per language: building one costs far more than using it. */
const DATE_FORMATS = new Map<string, Intl.DateTimeFormat>();

function dateFormat(language: string): Intl.DateTimeFormat {
  let format = DATE_FORMATS.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
    DATE_FORMATS.set(language, format);
  }
  return format;
}

/** An offer in the page's language, priced for the reader's country; null for "not for sale". */
export function offerView(offer: Offer | undefined, country: string | null): OfferView | null {
  if (!offer || offer.state === 'not_for_sale') return null;
  const language = currentLanguage();
  const price =
    offer.state === 'for_sale' && offer.amount !== null && offer.currency
      ? formatPrice(offer.amount, offer.currency, language, country)
      : null;
  if (offer.state === 'for_sale' && !price) return null;
  const text =
    price ??
    t(
      offer.state === 'free'
        ? 'book.offer.free'
        : offer.state === 'read_free'
          ? 'book.offer.readFree'
          : offer.state === 'borrow_now'
            ? 'book.offer.borrowNow'
            : 'book.offer.waitlist',
    );
  const date = dateFormat(language).format(new Date(offer.readAt));
  const asOf = t(price ? 'book.offer.priceAsOf' : 'book.offer.asOf', { date });
  return {
    state: offer.state,
    text,
    asOf,
    amount: offer.amount,
    currency: offer.currency,
    readAt: offer.readAt,
  };
}

function groupViews(
  slug: string,
  groups: readonly LinkGroup[],
  sfid: number | null,
  carry: { partner?: string | null; src?: string | null },
  format: string | null = null,
  offers: ReadonlyMap<string, Offer> = new Map(),
  country: string | null = null,
): LinkGroupView[] {
  return groups.map((group) => ({
    group: group.group,
    title: group.title,
    links: group.links.map((link) => ({
      destinationSlug: link.destination.slug,
      name: link.destination.displayName,
      group: link.destination.group,
      // A country storefront's link names its country, so /go/ sends the reader to the store shown;
      // so does a store's own link from an offer, which is the reader's country's.
      href: goPath(
        slug,
        link.destination.slug,
        sfid,
        link.destination.country ?? (offers.get(link.destination.slug)?.url ? country : null),
        carry,
      ),
      label: link.label,
      tagline: link.tagline,
      featured: link.featured,
      brandColor: link.destination.brandColor || null,
      iconUrl: link.destination.iconUrl || null,
      kind: link.kind,
      format: editionFormat(link.destination.group, link.kind, format),
      offer: offerView(offers.get(link.destination.slug), country),
    })),
  }));
}

function editionViews(loaded: LoadedBook): EditionView[] {
  if (loaded.editions.length < 2) return [];
  return loaded.editions.map((edition) => ({
    slug: edition.slug,
    title: edition.title,
    format: edition.format,
    publishedDate: edition.publishedDate,
    isbn13: edition.isbn13,
    current: edition.id === loaded.book.id,
    canonical: edition.id === loaded.canonicalBookId,
  }));
}

/**
 * Country names in the page's language. The sentence around the name ("Shops for the United
 * Kingdom", "Läden für das Vereinigte Königreich", "Boutiques pour les États-Unis") is the
 * catalogue's, chosen by the country code: each language writes its article and case there.
 */
export function countryView(code: string, back: string, offered: readonly string[]): CountryView {
  const language = currentLanguage();
  const choices = [...new Set([...offered, code])]
    .map((choice) => ({ code: choice, name: countryName(choice, language) }))
    .sort((a, b) => a.name.localeCompare(b.name, language));
  return { code, name: countryName(code, language), back, choices };
}

export interface BookPageParams {
  baseUrl: string;
  template: PageTemplate;
  use: string | null;
  sfid: number | null;
  /** `partner=` and `src=` of the visit, carried into every `/go/` link of the page. */
  partner?: string | null;
  src?: string | null;
  /** The reader's country the links are for (`readerCountry`), or null. */
  country?: string | null;
  /** The countries the switcher offers (`BookPages.countries`). */
  countries?: readonly string[];
  /** The fresh offers for that country, by destination slug (`BookPages.offersFor`). */
  offers?: ReadonlyMap<string, Offer>;
}

export function bookPageModel(
  loaded: LoadedBook,
  groups: readonly LinkGroup[],
  params: BookPageParams,
): BookPageModel {
  const { slug } = loaded.book;
  const highlighted = params.use
    ? groups.flatMap((group) => group.links).some((link) => link.destination.slug === params.use)
    : false;
  return {
    baseUrl: params.baseUrl,
    canonicalUrl: `${params.baseUrl}/book/${encodeURIComponent(slug)}`,
    shortUrl: `${params.baseUrl}/b/${encodeURIComponent(slug)}`,
    book: bookView(loaded.book),
    groups: groupViews(
      slug,
      groups,
      params.sfid,
      { partner: params.partner, src: params.src },
      loaded.book.format,
      params.offers,
      params.country ?? null,
    ),
    editions: editionViews(loaded),
    template: params.template,
    highlight: highlighted ? params.use : null,
    series: seriesOf(loaded),
    country: params.country
      ? countryView(params.country, `/book/${encodeURIComponent(slug)}`, params.countries ?? [])
      : null,
  };
}

function seriesOf(loaded: LoadedBook): BookPageModel['series'] {
  const position = seriesPosition(loaded.identifiers.series);
  return position && !position.isRange
    ? { name: position.name, slug: position.slug, number: position.number }
    : null;
}
