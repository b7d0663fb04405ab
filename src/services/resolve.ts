import type { Requester } from '../catalog/requester.js';
import { parseIsbn } from '../domain/isbn.js';
import { parseQuery } from '../domain/query.js';
import { type ParsedRetailerUrl, parseRetailerUrl } from '../domain/retailer-urls/index.js';
import type { Book } from '../store/books.js';
import type { Db } from '../store/schema.js';
import type { BookCreator } from './book-creator.js';
import { PageCache } from './page-cache.js';
import { type EditionLookup, IdentifierResolver } from './resolve/identifiers.js';
import {
  type ProviderTitleSource,
  providersKnowRival,
  providerTitleRecord,
  slugIsTitleOnly,
} from './resolve/provider-title.js';
import { expandShortLink, isShortLink, type ShortLinkFollower } from './resolve/short-links.js';
import { type ConfidentTitleSearch, confidentTitleCandidate } from './resolve/title-match.js';
import type { MayCreate } from './write-limits.js';

export type { ConfidentTitleSearch } from './resolve/title-match.js';

/** How a book was found: useful in logs and in the evaluation's breakdown. */
export type ResolveVia = 'isbn' | 'identifier' | 'catalog' | 'provider' | 'title' | 'text';
export type InputKind = 'url' | 'isbn' | 'text';

/**
 * Why an input was not tied to a book, for the page a reader lands on: a shop the parser does not
 * know, a page that is no product page (a search, an author), or a book no source could name.
 */
export type NotFoundReason = 'unknown_shop' | 'not_book' | 'no_match';

export type ResolveOutcome =
  | { status: 'found'; book: Book; via: ResolveVia }
  /** `searchText` is the best text the input offers for a search, or null when it offers none. */
  | { status: 'not_found'; searchText: string | null; reason: NotFoundReason };

export interface ResolverDeps {
  db: Db;
  creator: BookCreator;
  /** The search service; without it title words never resolve (a guess is never made instead). */
  search: ConfidentTitleSearch | null;
  /** Provider search for title-and-author URLs the local catalog cannot answer (people only). */
  providerTitles?: ProviderTitleSource | null;
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
/** How many store URLs' books are remembered (the most recently used stay), for how long, and the longest URL kept. */
const KNOWN_URLS = 5000;
const KNOWN_URL_MS = 10 * 60_000;
const MAX_KNOWN_URL_LENGTH = 2048;

type Found = Extract<ResolveOutcome, { status: 'found' }>;

const notFound = (text: string | null, reason: NotFoundReason = 'no_match'): ResolveOutcome => ({
  status: 'not_found',
  searchText: text?.trim().slice(0, MAX_SEARCH_TEXT) || null,
  reason,
});

function reasonOf(parsed: ParsedRetailerUrl): NotFoundReason {
  if (parsed.kind === 'not_book') return 'not_book';
  return parsed.store === 'unknown' ? 'unknown_shop' : 'no_match';
}

/** The best text a parsed URL offers for a search: title words, else the ISBN, else an identifier. */
function searchTextOf(parsed: ParsedRetailerUrl): string | null {
  if (parsed.kind === 'not_book') return parsed.titleWords;
  return parsed.titleWords ?? parsed.isbn?.isbn13 ?? Object.values(parsed.identifiers)[0] ?? null;
}

/**
 * Audible's numeric ids pass the ISBN-10 check and are often the audio edition's ISBN, but not
 * always: when no source knows that "ISBN", the page's title words may still name the book.
 */
function isbnFromAudioId(parsed: ParsedRetailerUrl): boolean {
  return parsed.isbn !== null && parsed.identifiers.audible === parsed.isbn.isbn10;
}

/** Kobo slugs end in a number that tells same-titled books apart ("the-hobbit-12"): no title word. */
function slugTitle(store: string, titleWords: string): string {
  return store === 'kobo' ? titleWords.replace(/\s\d{1,3}$/, '') : titleWords;
}

/**
 * Turns a retailer URL (or, for the client API, any input) into exactly one book or an honest
 * "not found" with the text to search for. Order of trust: ISBN, identifiers, then the title words
 * only when the search is confident. Zero confident answers to the wrong book is the aim.
 */
export class Resolver {
  private readonly identifiers: IdentifierResolver;
  /**
   * Store URLs already tied to a book by an ISBN or an identifier: the same URL names the same book
   * until a book or the catalog changes (`forget`), so a link shared widely is one cache lookup rather
   * than a parse and a query per reader. Answers found by title words are not kept: they follow the
   * search, which learns. The page cache's marks keep an answer found during a change from being kept.
   */
  private readonly known = new PageCache<Found>(KNOWN_URLS, KNOWN_URL_MS);

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

  /** Drops the remembered URLs: a book changed (its slug, its editions) or the catalog did. */
  forget(): void {
    this.known.clear();
  }

  /**
   * A retailer URL; text that is not a URL at all is only offered back as search text. `requester`:
   * the client address the providers are asked for (its share of their budgets).
   */
  async resolveUrl(
    input: string,
    mayCreate: MayCreate,
    requester: Requester = null,
  ): Promise<ResolveOutcome> {
    const text = input.trim();
    if (!text) return notFound(null);
    const known = this.known.get(text);
    if (known) return known;
    // An answer found while a book changed is not remembered (it may be the old one).
    const mark = this.known.mark();
    let parsed = parseRetailerUrl(text);
    // A short link may be pointed elsewhere tomorrow: only the store URLs themselves are remembered.
    const shortened = parsed?.needsExpansion === true || isShortLink(text, this.deps.shortLinkHosts);
    if (shortened) {
      const expanded = this.deps.shortLinks
        ? await expandShortLink(text, { follower: this.deps.shortLinks, timeoutMs: this.deps.timeoutMs })
        : null;
      parsed = expanded ? parseRetailerUrl(expanded) : null;
      if (!parsed || parsed.needsExpansion) return notFound(null, 'unknown_shop');
    }
    if (!parsed) return notFound(/^[a-z][a-z0-9+.-]*:/i.test(text) ? null : text, 'not_book');
    const outcome = await this.resolveParsed(parsed, mayCreate, requester);
    const byIdentity = outcome.status === 'found' && (outcome.via === 'isbn' || outcome.via === 'identifier');
    if (byIdentity && !shortened && text.length <= MAX_KNOWN_URL_LENGTH)
      this.known.set(text, outcome.book.slug, outcome, mark);
    return outcome;
  }

  /** `POST /api/v1/clients/resolve`: a URL, an ISBN or free text. */
  async resolveInput(
    input: string,
    mayCreate: MayCreate,
    requester: Requester = null,
  ): Promise<ResolveOutcome & { inputKind: InputKind }> {
    const text = input.trim();
    if (parseRetailerUrl(text) || isShortLink(text, this.deps.shortLinkHosts)) {
      return { ...(await this.resolveUrl(text, mayCreate, requester)), inputKind: 'url' };
    }
    const query = parseQuery(text);
    if (query.kind === 'isbn') {
      const outcome = await this.deps.creator.byIsbn(query.isbn, mayCreate, requester);
      if (outcome.kind === 'existing' || outcome.kind === 'created') {
        return { status: 'found', book: outcome.book, via: 'isbn', inputKind: 'isbn' };
      }
      return { ...notFound(query.isbn.isbn13, 'no_match'), inputKind: 'isbn' };
    }
    return { ...(await this.resolveText(text, mayCreate, requester)), inputKind: 'text' };
  }

  private async resolveParsed(
    parsed: ParsedRetailerUrl,
    mayCreate: MayCreate,
    requester: Requester,
  ): Promise<ResolveOutcome> {
    // A DVD or a search page is never tied to a book, whatever identifiers it carries.
    if (parsed.kind === 'not_book') return notFound(searchTextOf(parsed), 'not_book');
    if (parsed.isbn) {
      const outcome = await this.deps.creator.byIsbn(parsed.isbn, mayCreate, requester);
      if (outcome.kind === 'existing' || outcome.kind === 'created') {
        return { status: 'found', book: outcome.book, via: 'isbn' };
      }
    }
    const byIdentifier = await this.identifiers.resolve(
      parsed.identifiers,
      mayCreate,
      requester,
      parsed.country,
    );
    if (byIdentifier) return { status: 'found', ...byIdentifier };
    // An ISBN names one edition: when no source knows it, another edition found by title would be
    // a guess (a Swedish "Hobbit" is not the English one), so only ISBN-less URLs use their words.
    // An unknown site's path words (a publisher's shop) resolve under the same two-way check as a
    // store's; what its search box was asked is offered for a search, never resolved.
    if (parsed.titleWords && (!parsed.isbn || isbnFromAudioId(parsed)) && !parsed.searchedWords) {
      const book = await this.titleBook(
        parsed.store,
        parsed.titleWords,
        parsed.authorWords ?? null,
        mayCreate,
        requester,
      );
      if (book) return { status: 'found', ...book };
    }
    return notFound(searchTextOf(parsed), reasonOf(parsed));
  }

  /**
   * Title words: the search service's confident, agreeing answer; an answer without an ISBN (an
   * ebook-only record) only after the providers were asked for an edition with one.
   */
  private async titleBook(
    store: string,
    titleWords: string,
    authorWords: string | null,
    mayCreate: MayCreate,
    requester: Requester,
  ): Promise<{ book: Book; via: ResolveVia } | null> {
    const search = this.deps.search;
    const words = slugTitle(store, titleWords);
    let candidate = search ? await confidentTitleCandidate(search, words, authorWords, requester) : null;
    // A title-only slug the local catalog answers may still name another book the world knows.
    const slug = { titleWords: words, authorWords };
    const providers = this.deps.providerTitles;
    if (candidate && mayCreate && providers && slugIsTitleOnly(slug, candidate.record)) {
      const timeoutMs = this.deps.timeoutMs;
      if (await providersKnowRival(providers, slug, candidate.record, timeoutMs, requester)) candidate = null;
    }
    if (search && candidate && (candidate.book || candidate.record.isbn13 || !mayCreate)) {
      const book = await search.bookFor(candidate, mayCreate);
      return book ? { book, via: 'title' } : null;
    }
    if (mayCreate) {
      const book = await this.providerTitleBook(words, authorWords, mayCreate, requester);
      if (book) return { book, via: 'provider' };
    }
    const book = search && candidate ? await search.bookFor(candidate, mayCreate) : null;
    return book ? { book, via: 'title' } : null;
  }

  /**
   * Title and author read from the slug, asked of the providers when the local catalog has no
   * confident answer; the one edition they agree on becomes the book (by its ISBN when it has one,
   * so the local catalog and the provider chain fill it in as for `/isbn/`).
   */
  private async providerTitleBook(
    titleWords: string,
    authorWords: string | null,
    mayCreate: MayCreate,
    requester: Requester,
  ): Promise<Book | null> {
    const source = this.deps.providerTitles;
    if (!source) return null;
    const slug = { titleWords, authorWords };
    const record = await providerTitleRecord(source, slug, this.deps.timeoutMs, requester);
    if (!record) return null;
    const isbn = record.isbn13 ? parseIsbn(record.isbn13) : null;
    if (isbn) {
      const outcome = await this.deps.creator.byIsbn(isbn, mayCreate, requester);
      if (outcome.kind === 'existing' || outcome.kind === 'created') return outcome.book;
      if (outcome.kind === 'not_created') return null;
    }
    return this.deps.creator.createIfAllowed(record, mayCreate);
  }

  /** Free text: the search service's confident match, or the text to search for. */
  private async resolveText(
    text: string,
    mayCreate: MayCreate,
    requester: Requester,
  ): Promise<ResolveOutcome> {
    if (!this.deps.search) return notFound(text);
    const outcome = await this.deps.search.search(text, 5, requester);
    const book = outcome.confident ? await this.deps.search.bookFor(outcome.confident, mayCreate) : null;
    return book ? { status: 'found', book, via: 'text' } : notFound(text, 'no_match');
  }
}
