import type { DestinationGroup } from '../../domain/groups.js';
import type { Book } from '../../services/book-pages.js';

/** The book's own facts a book page shows (the stored book's, as they are). */
export type BookView = Pick<
  Book,
  | 'id'
  | 'slug'
  | 'title'
  | 'subtitle'
  | 'authors'
  | 'coverUrl'
  | 'isbn13'
  | 'isbn10'
  | 'publishedDate'
  | 'publisher'
  | 'format'
  | 'language'
  | 'pages'
  | 'description'
>;

export interface DestinationLinkView {
  destinationSlug: string;
  name: string;
  group: DestinationGroup;
  /** Always a `/go/{slug}/{destination}` path on this service, so every click is counted. */
  href: string;
  label: string | null;
  tagline: string | null;
  featured: boolean;
  brandColor: string | null;
  iconUrl: string | null;
  /** `product`: opens the book's own page at the store; `search`: runs a search there for it. */
  kind: 'product' | 'search';
  /** The edition's format the product page is for ("Paperback"), when Booklink knows it. */
  format?: string | null;
  /** What the store asks or the library offers, as last read (fresh offers only). */
  offer?: OfferView | null;
}

/** An offer on a button, already worded for the page's language and the reader's country. */
export interface OfferView {
  state: 'for_sale' | 'free' | 'not_for_sale' | 'borrow_now' | 'waitlist' | 'read_free';
  /** "£7.99", "Free", "Borrow now"… */
  text: string;
  /** "Price as of 2 Dec 2026": when it was read. */
  asOf: string;
  amount: number | null;
  currency: string | null;
  /** When it was read (ISO 8601), for the JSON-LD. */
  readAt: string;
}

export interface LinkGroupView {
  group: DestinationGroup;
  title: string;
  links: DestinationLinkView[];
}

export interface EditionView {
  slug: string;
  title: string;
  format: string | null;
  publishedDate: string | null;
  isbn13: string | null;
  current: boolean;
  /** The edition the operator (or the first creation) chose to lead the work. */
  canonical?: boolean;
}

export type PageTemplate = 'default' | 'compact' | 'card';

export interface BookPageModel {
  baseUrl: string;
  canonicalUrl: string;
  shortUrl: string;
  book: BookView;
  groups: LinkGroupView[];
  editions: EditionView[];
  template: PageTemplate;
  /** Destination slug the page was asked to highlight (`use=`), already moved first. */
  highlight: string | null;
  /** The series the catalog puts this book in, with its number there. */
  series?: { name: string; slug: string; number: number | null } | null;
  /** Whose shops the page lists, and the switcher's choices. */
  country?: CountryView | null;
}

export interface CountryView {
  code: string;
  /** "United Kingdom", in the page's language (the catalogue's sentence adds any article). */
  name: string;
  /** The path the switcher sends the reader back to. */
  back: string;
  choices: ReadonlyArray<{ code: string; name: string }>;
}
