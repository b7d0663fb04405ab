import { searchAuthor, searchTitle } from '../domain/links/templates.js';
import {
  ANY_COUNTRY,
  type Offer,
  type OfferKind,
  type OfferSource,
  type OfferState,
  offerLinkAllowed,
} from '../domain/offers.js';
import { authorSurname, foldText } from '../domain/text.js';
import type { HttpClient } from './http-client.js';
import { arr, endpoint, type Json, num, obj, str } from './providers/normalise.js';

/**
 * Reading offers from the stores' own APIs (issue 47): Google Books `saleInfo`/`accessInfo` per
 * country, the iTunes Lookup API's prices per storefront, Open Library's Read API lending state.
 * Every answer is read defensively (any field may be missing, of the wrong type, or the whole body
 * something else); a link is kept only on the source's own hosts.
 */

/** What one source said: its offers (possibly none) for the book in one country. */
export type OfferAnswer = Omit<Offer, 'readAt'>[];

/**
 * What an offer read knows of the book: its ISBN for the stores' lookups, its title and authors for
 * the iTunes audiobook search, and the Apple Books id of its audiobook when it has one.
 */
export interface OfferTarget {
  isbn13: string | null;
  title: string;
  subtitle?: string | null;
  authors: readonly string[];
  appleAudiobookId?: string | null;
}

/** The names the offers' requests are counted, budgeted and broken under (apart from lookups'). */
export const OFFER_CLIENT_NAMES: Readonly<Record<OfferSource, string>> = {
  googlebooks: 'offers-googlebooks',
  itunes: 'offers-itunes',
  openlibrary: 'offers-openlibrary',
};

function amountOf(value: unknown): { amount: number; currency: string } | null {
  const price = obj(value);
  const amount = num(price?.amount);
  const currency = str(price?.currencyCode);
  if (amount === null || amount < 0 || !Number.isFinite(amount) || !currency || !/^[A-Z]{3}$/.test(currency))
    return null;
  return { amount, currency };
}

function googleState(saleability: string | null, price: unknown): OfferState | null {
  if (saleability === 'FREE') return 'free';
  if (saleability === 'FOR_SALE' || saleability === 'FOR_PREORDER') return price ? 'for_sale' : null;
  if (saleability === 'NOT_FOR_SALE' || saleability === 'FOR_RENTAL_ONLY') return 'not_for_sale';
  return null;
}

/**
 * One `volumes?q=isbn:…&country=XX` answer: the volume carrying the ISBN (Google answers neighbours
 * too), its `saleInfo` for that country (`retailPrice` before `listPrice`), and a full free
 * `accessInfo` (public domain, `viewability: ALL_PAGES`) as free.
 */
export function googleOffers(body: unknown, isbn13: string, country: string): OfferAnswer {
  const items = arr(obj(body)?.items)
    .map(obj)
    .filter((item): item is Json => item !== null);
  const item = items.find((candidate) =>
    arr(obj(candidate.volumeInfo)?.industryIdentifiers).some(
      (entry) => str(obj(entry)?.identifier)?.replace(/-/g, '') === isbn13,
    ),
  );
  if (!item) return [];
  const sale = obj(item.saleInfo);
  const access = obj(item.accessInfo);
  const price = amountOf(sale?.retailPrice) ?? amountOf(sale?.listPrice);
  const openAccess = access?.publicDomain === true && access.viewability === 'ALL_PAGES';
  const state = openAccess ? 'free' : googleState(str(sale?.saleability), price);
  if (!state) return [];
  const id = str(item.id);
  const buyLink = str(sale?.buyLink);
  const fallback =
    id && /^[\w-]{4,40}$/.test(id) ? `https://play.google.com/store/books/details?id=${id}` : null;
  const url = offerLinkAllowed('googlebooks', buyLink) ? buyLink : state === 'not_for_sale' ? null : fallback;
  return [
    {
      source: 'googlebooks',
      country,
      kind: 'ebook',
      state,
      amount: state === 'for_sale' ? (price?.amount ?? null) : null,
      currency: state === 'for_sale' ? (price?.currency ?? null) : null,
      url,
    },
  ];
}

function itunesKind(result: Json): OfferKind | null {
  if (result.wrapperType === 'audiobook' || result.kind === 'audiobook') return 'audiobook';
  if (result.kind === 'ebook') return 'ebook';
  return null;
}

/**
 * One `lookup?isbn=…&country=xx` answer: each ebook (`price`, `currency`, `trackViewUrl`) and
 * audiobook (`collectionPrice`, `collectionViewUrl`) it lists. A price of 0 is free; no price at
 * all (a book listed but not sold in that storefront) gives no offer.
 */
export function itunesOffers(body: unknown, country: string): OfferAnswer {
  const offers: OfferAnswer = [];
  for (const raw of arr(obj(body)?.results)) {
    const result = obj(raw);
    const kind = result ? itunesKind(result) : null;
    if (!result || !kind) continue;
    const amount = num(kind === 'audiobook' ? (result.collectionPrice ?? result.price) : result.price);
    const currency = str(result.currency);
    if (amount === null || amount < 0 || !currency || !/^[A-Z]{3}$/.test(currency)) continue;
    const link = str(
      kind === 'audiobook' ? (result.collectionViewUrl ?? result.trackViewUrl) : result.trackViewUrl,
    );
    const free = amount === 0;
    offers.push({
      source: 'itunes',
      country,
      kind,
      state: free ? 'free' : 'for_sale',
      amount: free ? null : amount,
      currency: free ? null : currency,
      url: offerLinkAllowed('itunes', link) ? link : null,
    });
  }
  // One offer per kind: the store lists a book once per storefront.
  return offers.filter((offer, i) => offers.findIndex((other) => other.kind === offer.kind) === i);
}

/** Apple's edition note at the end of an audiobook's name: "Project Hail Mary (Unabridged)". */
const EDITION_NOTE = /\s*[([](?:un)?abridged(?:\s+edition)?[)\]]\s*$/i;

/**
 * Whether an audiobook the iTunes search answered is this book: its name, less Apple's edition
 * note, is the book's title (with or without its subtitle), and its `artistName` (the author, for
 * audiobooks) holds one of the book's authors' surnames. A search answers any book sharing a word;
 * nothing looser is taken, since the price shown would be another book's.
 */
export function audiobookMatches(result: Json, book: OfferTarget): boolean {
  const name = str(result.collectionName);
  const artist = str(result.artistName);
  if (!name || !artist || book.authors.length === 0) return false;
  const folded = foldText(name.replace(EDITION_NOTE, ''));
  const title = searchTitle(book.title);
  const titles = [title, book.subtitle ? `${title} ${book.subtitle}` : null]
    .filter((text): text is string => Boolean(text))
    .map(foldText);
  if (!folded || !titles.includes(folded)) return false;
  const artistWords = ` ${foldText(artist)} `;
  return book.authors.some((author) => {
    const surname = authorSurname(author);
    return surname !== '' && artistWords.includes(` ${surname} `);
  });
}

/**
 * The audiobook offer of one `lookup?id=…&country=xx` answer (the book's own audiobook: no match
 * asked) or one `search?media=audiobook&entity=audiobook&country=xx` answer (`book` given: the first
 * result that is this book, in Apple's order). Only audiobook results count.
 */
export function itunesAudiobookOffers(body: unknown, country: string, book: OfferTarget | null): OfferAnswer {
  const results = arr(obj(body)?.results)
    .map(obj)
    .filter((result): result is Json => result !== null && itunesKind(result) === 'audiobook');
  const found = book ? results.find((result) => audiobookMatches(result, book)) : results[0];
  return found ? itunesOffers({ results: [found] }, country) : [];
}

const OL_STATES: Readonly<Record<string, OfferState>> = {
  'full access': 'read_free',
  lendable: 'borrow_now',
  'checked out': 'waitlist',
};

/**
 * One Read API answer (`/api/volumes/brief/isbn/{isbn}.json`): `{records, items}` for a known ISBN,
 * `[]` for an unknown one. Each item's `status` is `full access`, `lendable`, `checked out` or
 * `restricted` (print-disabled readers only: no offer); only `match: "exact"` items are this
 * edition (`similar` ones are other editions of the work). The best item wins; its link is its
 * edition's Open Library page, where the borrow button is.
 */
export function openLibraryOffers(body: unknown): OfferAnswer {
  const states = arr(obj(body)?.items)
    .map(obj)
    .filter((item): item is Json => item !== null && item.match === 'exact')
    .map((item) => {
      const edition = str(item['ol-edition-id']);
      const url =
        edition && /^OL\d{1,12}M$/.test(edition) ? `https://openlibrary.org/books/${edition}` : null;
      return { state: OL_STATES[str(item.status) ?? ''], url: url ?? str(item.itemURL) };
    })
    .filter((item): item is { state: OfferState; url: string | null } => item.state !== undefined);
  const order: OfferState[] = ['read_free', 'borrow_now', 'waitlist'];
  states.sort((a, b) => order.indexOf(a.state) - order.indexOf(b.state));
  const best = states[0];
  if (!best) return [];
  return [
    {
      source: 'openlibrary',
      country: ANY_COUNTRY,
      kind: 'borrow',
      state: best.state,
      amount: null,
      currency: null,
      url: offerLinkAllowed('openlibrary', best.url) ? best.url : null,
    },
  ];
}

export interface OfferReaderOptions {
  client: HttpClient;
  googleBooksUrl: string;
  itunesUrl: string;
  openLibraryUrl: string;
  timeoutMs: number;
}

/**
 * Asks one source about one book for one country: one request each, but for iTunes' audiobook (see
 * `readItunes`).
 */
export class OfferReader {
  constructor(private readonly options: OfferReaderOptions) {}

  async read(source: OfferSource, book: OfferTarget, country: string): Promise<OfferAnswer> {
    const { client, timeoutMs } = this.options;
    const name = OFFER_CLIENT_NAMES[source];
    if (source === 'itunes') return this.readItunes(book, country);
    const isbn13 = book.isbn13;
    if (!isbn13) return [];
    if (source === 'googlebooks') {
      const url = endpoint(this.options.googleBooksUrl, '/books/v1/volumes', {
        q: `isbn:${isbn13}`,
        country,
      });
      return googleOffers(await client.getJson(name, url, { timeoutMs }), isbn13, country);
    }
    const url = endpoint(this.options.openLibraryUrl, `/api/volumes/brief/isbn/${isbn13}.json`, {});
    return openLibraryOffers(await client.getJson(name, url, { timeoutMs }));
  }

  /**
   * The storefront's ebook (and audiobook, when Apple lists one under the ISBN) from the ISBN lookup.
   * An audiobook carries its own ISBN, seldom the print one the book has, so the lookup rarely names
   * it: the audiobook is then looked up by its Apple id when the book holds one (`apple_audiobook`),
   * else searched for by title and author in that storefront and taken only when its title and author
   * are the book's (`audiobookMatches`). A second request, counted in the same budget.
   */
  private async readItunes(book: OfferTarget, country: string): Promise<OfferAnswer> {
    const { client, timeoutMs, itunesUrl } = this.options;
    const name = OFFER_CLIENT_NAMES.itunes;
    const storefront = country.toLowerCase();
    const offers = book.isbn13
      ? itunesOffers(
          await client.getJson(
            name,
            endpoint(itunesUrl, '/lookup', { isbn: book.isbn13, country: storefront }),
            { timeoutMs },
          ),
          country,
        )
      : [];
    if (offers.some((offer) => offer.kind === 'audiobook')) return offers;
    const id = book.appleAudiobookId;
    if (id && /^\d{1,15}$/.test(id)) {
      const url = endpoint(itunesUrl, '/lookup', { id, country: storefront });
      return [
        ...offers,
        ...itunesAudiobookOffers(await client.getJson(name, url, { timeoutMs }), country, null),
      ];
    }
    const author = book.authors[0];
    if (!author || !book.title.trim()) return offers;
    const url = endpoint(itunesUrl, '/search', {
      term: `${searchTitle(book.title)} ${searchAuthor(author)}`,
      media: 'audiobook',
      entity: 'audiobook',
      country: storefront,
      limit: 10,
    });
    return [
      ...offers,
      ...itunesAudiobookOffers(await client.getJson(name, url, { timeoutMs }), country, book),
    ];
  }
}
