import type { Isbn } from '../isbn.js';

/**
 * What a URL says about the page behind it. `not_book` means the URL itself shows it is something
 * else (a DVD, a search or home page); `unknown` means a product page whose type the URL cannot tell.
 */
export type UrlKind = 'book' | 'not_book' | 'unknown';

export interface ParsedRetailerUrl {
  /** Stable store key (`amazon`, `goodreads`, …), or `unknown` for hosts we have no table entry for. */
  store: string;
  /** ISO 3166-1 alpha-2 code when the storefront implies a country, else null. */
  country: string | null;
  kind: UrlKind;
  isbn: Isbn | null;
  /** Identifier scheme → value (`asin`, `goodreads`, `ol_edition`, …). */
  identifiers: Record<string, string>;
  /** The human words of the title taken from the URL slug, as spelled there; null when there are none. */
  titleWords: string | null;
  /**
   * When the URL tells title and author apart (Hive's `/Product/<Author>/<Title>/`, ThriftBooks'
   * `title_author`): the author's words. `titleWords` is unchanged by it: the whole slug.
   */
  authorWords?: string | null;
  /**
   * An unknown host's words came from its search parameters (`?q=…`), not from a product path:
   * what a reader searched there, offered for a search but never read as one book.
   */
  searchedWords?: boolean;
  /** The URL without tracking parameters or fragments. */
  canonicalUrl: string;
  /** A short link (amzn.to, a.co, …) the caller must expand with one bounded request before parsing again. */
  needsExpansion: boolean;
}

/** The named capture groups a path pattern may define. */
export interface PathGroups {
  id?: string;
  isbn?: string;
  slug?: string;
  country?: string;
  author?: string;
}

/** One recognised page shape of a store. */
export interface PathRule {
  /** Tested against the percent-decoded path with the store's junk segments removed. */
  path: RegExp;
  /** Default `book`. */
  kind?: UrlKind;
  /** Identifier scheme the `id` group is stored under. */
  id?: string;
  /** Query (or fragment) parameter → identifier scheme; the scheme `isbn` parses the value as an ISBN. */
  query?: Readonly<Record<string, string>>;
  /** Words to cut from the end (or start) of the slug: store boilerplate like "Audiobook" or "libro". */
  slugNoise?: RegExp;
  /** Look for an ISBN-13 inside the slug (marketplaces embed one in free-form titles). */
  isbnInSlug?: boolean;
  /**
   * With `kind: 'not_book'`: the product itself is no book (a DVD, a toy, an album), so no ISBN
   * found elsewhere in the URL may turn it into one. Without it, `not_book` means a page that is
   * no product page (a search, an author page), which an ISBN in the URL still ties to a book.
   */
  nonBook?: boolean;
  /** Splits the slug into title and author (ThriftBooks' `title_author`, Dymocks' `title-by-author`). */
  authorSeparator?: RegExp;
}

/** Everything the engine has worked out so far; a store's `refine` hook may amend it. */
export interface Draft
  extends Pick<ParsedRetailerUrl, 'store' | 'country' | 'kind' | 'isbn' | 'identifiers' | 'titleWords'> {
  authorWords: string | null;
  /** Evidence that the product is not a book: no ISBN found elsewhere may override it. */
  nonBook: boolean;
  /** Path used in the canonical URL. */
  canonicalPath: string;
  /** Query parameters kept in the canonical URL. */
  canonicalQuery: [string, string][];
  canonicalHost: string;
}

export interface RefineContext {
  url: URL;
  /** Decoded, cleaned path the patterns saw. */
  path: string;
  params: URLSearchParams;
  rule: PathRule | null;
  groups: PathGroups;
}

/** One declarative entry per store. */
export interface StoreRule {
  store: string;
  /** Host (subdomains match too, longest entry wins) → country the storefront implies. */
  hosts: Readonly<Record<string, string | null>>;
  /** Tried in order; the first match wins. */
  patterns: readonly PathRule[];
  /** Short-link hosts: nothing can be read until the caller expands them. */
  shortLink?: boolean;
  /**
   * The query parameters the store's own search box fills where they are not the generic ones (`q`,
   * `query`…): what a pasted search asked (`?sq=…`, `?_nkw=…`), offered for a search instead.
   */
  searchParams?: readonly string[];
  /** Removes path segments that carry tracking rather than identity (Amazon's `/ref=…`). */
  cleanPath?: (path: string) => string;
  /** Store-specific judgement the table cannot express (Amazon's ASIN and category rules). */
  refine?: (draft: Draft, context: RefineContext) => void;
}
