import { parseQuery } from '../domain/query.js';
import { type ParsedRetailerUrl, parseRetailerUrl } from '../domain/retailer-urls/index.js';
import type { Book } from '../store/books.js';
import type { Db } from '../store/schema.js';
import type { BookCreator } from './book-creator.js';
import { type EditionLookup, IdentifierResolver } from './resolve/identifiers.js';
import { expandShortLink, isShortLink, type ShortLinkFollower } from './resolve/short-links.js';
import { type ConfidentTitleSearch, confidentTitleBook } from './resolve/title-match.js';

export type { ConfidentTitleSearch } from './resolve/title-match.js';

/** How a book was found: useful in logs and in the evaluation's breakdown. */
export type ResolveVia = 'isbn' | 'identifier' | 'catalog' | 'provider' | 'title' | 'text';
export type InputKind = 'url' | 'isbn' | 'text';

export type ResolveOutcome =
  | { status: 'found'; book: Book; via: ResolveVia }
  /** `searchText` is the best text the input offers for a search, or null when it offers none. */
  | { status: 'not_found'; searchText: string | null };

export interface ResolverDeps {
  db: Db;
  creator: BookCreator;
  /** The search service; without it title words never resolve (a guess is never made instead). */
  search: ConfidentTitleSearch | null;
  /** The outbound client's short-link walk; without it short links stay unexpanded. */
  shortLinks: ShortLinkFollower | null;
  /** Hosts treated as short links (the same list the follower allows). */
  shortLinkHosts: readonly string[];
  editionLookups: readonly EditionLookup[];
  timeoutMs: number;
  /** Releases what the wiring opened for this resolver (its short-link client). */
  close?: () => Promise<void>;
}

const MAX_SEARCH_TEXT = 500;

const notFound = (text: string | null): ResolveOutcome => ({
  status: 'not_found',
  searchText: text?.trim().slice(0, MAX_SEARCH_TEXT) || null,
});

/** The best text a parsed URL offers for a search: title words, else the ISBN, else an identifier. */
function searchTextOf(parsed: ParsedRetailerUrl): string | null {
  if (parsed.kind === 'not_book') return parsed.titleWords;
  return parsed.titleWords ?? parsed.isbn?.isbn13 ?? Object.values(parsed.identifiers)[0] ?? null;
}

/**
 * Turns a retailer URL (or, for the client API, any input) into exactly one book or an honest
 * "not found" with the text to search for. Order of trust: ISBN, identifiers, then the title words
 * only when the search is confident. Zero confident answers to the wrong book is the aim.
 */
export class Resolver {
  private readonly identifiers: IdentifierResolver;

  constructor(private readonly deps: ResolverDeps) {
    this.identifiers = new IdentifierResolver({
      db: deps.db,
      creator: deps.creator,
      lookups: deps.editionLookups,
      timeoutMs: deps.timeoutMs,
    });
  }

  async close(): Promise<void> {
    await this.deps.close?.();
  }

  /** A retailer URL; text that is not a URL at all is only offered back as search text. */
  async resolveUrl(input: string, mayCreate: boolean): Promise<ResolveOutcome> {
    const text = input.trim();
    if (!text) return notFound(null);
    let parsed = parseRetailerUrl(text);
    if (parsed?.needsExpansion || isShortLink(text, this.deps.shortLinkHosts)) {
      const expanded = this.deps.shortLinks
        ? await expandShortLink(text, { follower: this.deps.shortLinks, timeoutMs: this.deps.timeoutMs })
        : null;
      parsed = expanded ? parseRetailerUrl(expanded) : null;
      if (!parsed || parsed.needsExpansion) return notFound(null);
    }
    if (!parsed) return notFound(/^[a-z][a-z0-9+.-]*:/i.test(text) ? null : text);
    return this.resolveParsed(parsed, mayCreate);
  }

  /** `POST /api/v1/clients/resolve`: a URL, an ISBN or free text. */
  async resolveInput(input: string, mayCreate: boolean): Promise<ResolveOutcome & { inputKind: InputKind }> {
    const text = input.trim();
    if (parseRetailerUrl(text) || isShortLink(text, this.deps.shortLinkHosts)) {
      return { ...(await this.resolveUrl(text, mayCreate)), inputKind: 'url' };
    }
    const query = parseQuery(text);
    if (query.kind === 'isbn') {
      const outcome = await this.deps.creator.byIsbn(query.isbn, mayCreate);
      if (outcome.kind === 'existing' || outcome.kind === 'created') {
        return { status: 'found', book: outcome.book, via: 'isbn', inputKind: 'isbn' };
      }
      return { ...notFound(query.isbn.isbn13), inputKind: 'isbn' };
    }
    return { ...(await this.resolveText(text, mayCreate)), inputKind: 'text' };
  }

  private async resolveParsed(parsed: ParsedRetailerUrl, mayCreate: boolean): Promise<ResolveOutcome> {
    // A DVD or a search page is never tied to a book, whatever identifiers it carries.
    if (parsed.kind === 'not_book') return notFound(searchTextOf(parsed));
    if (parsed.isbn) {
      const outcome = await this.deps.creator.byIsbn(parsed.isbn, mayCreate);
      if (outcome.kind === 'existing' || outcome.kind === 'created') {
        return { status: 'found', book: outcome.book, via: 'isbn' };
      }
    }
    const byIdentifier = await this.identifiers.resolve(parsed.identifiers, mayCreate);
    if (byIdentifier) return { status: 'found', ...byIdentifier };
    // An ISBN names one edition: when no source knows it, another edition found by title would be
    // a guess (a Swedish "Hobbit" is not the English one), so only ISBN-less URLs use their words.
    if (parsed.titleWords && !parsed.isbn && this.deps.search) {
      const book = await confidentTitleBook(this.deps.search, parsed.titleWords, mayCreate);
      if (book) return { status: 'found', book, via: 'title' };
    }
    return notFound(searchTextOf(parsed));
  }

  /** Free text: the search service's confident match, or the text to search for. */
  private async resolveText(text: string, mayCreate: boolean): Promise<ResolveOutcome> {
    if (!this.deps.search) return notFound(text);
    const outcome = await this.deps.search.search(text, 5);
    const book = outcome.confident ? await this.deps.search.bookFor(outcome.confident, mayCreate) : null;
    return book ? { status: 'found', book, via: 'text' } : notFound(text);
  }
}
