import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Open Library (Books API jscmd=data, search.json, covers), Google Books
 * (volumes) and the iTunes Search API (lookup, search), answering in their documented formats with
 * the quirks of their real answers: Open Library editions with only `isbn_10`, works whose `isbn` and
 * `language` lists mix every edition's values in no order (the chosen edition under `editions`),
 * stub works without ISBN, cover or author (`edition_count: 0`); Google volumes with `pageCount: 0`,
 * `saleInfo` prices and links on a country's store; iTunes items with one `artistIds` entry per
 * author, their names joined in one `artistName`, and no ratings.
 * Tests decide which service knows which book, and can make a service slow, failing or hanging.
 *
 *   const fake = await startFakeProviders();
 *   const config = loadConfig({ ...fake.env, PROVIDERS: 'openlibrary,googlebooks' });
 *   fake.addBook({ isbn13: '9780316030571', title: 'Use of Weapons', authors: ['Iain M. Banks'],
 *                  only: ['openlibrary'] });
 *   fake.setFailure('googlebooks', { status: 500, times: 2 });   // then answers normally
 *   fake.setFailure('itunes', { hang: true });                    // never answers (a timeout)
 *   fake.requestCount('openlibrary');                             // requests seen so far
 *   await fake.close();
 *
 * All services share one 127.0.0.1 origin and differ by path prefix (/ol, /covers, /google, /itunes).
 */

export type FakeService = 'openlibrary' | 'covers' | 'googlebooks' | 'itunes' | 'redirects';

export interface FakeBook {
  isbn13: string;
  isbn10?: string;
  title: string;
  subtitle?: string;
  authors?: string[];
  publisher?: string;
  /** ISO "YYYY", "YYYY-MM" or "YYYY-MM-DD"; each service renders it in its own style. */
  publishedDate?: string;
  pages?: number;
  /** Two-letter code, as Google answers it. */
  language?: string;
  description?: string;
  /** Whether Open Library has a cover image (default true); Google and iTunes always list one. */
  cover?: boolean;
  /** What the iTunes store sells under this ISBN (default ebook). */
  format?: 'ebook' | 'audiobook';
  /**
   * The book's audiobook in the iTunes store, a product of its own: its own id, its name with Apple's
   * edition note ("The Hobbit (Unabridged)"), its own ISBN, so the lookup by the book's ISBN never
   * answers it (as the real one does not); `lookup?id=` and the audiobook search do. `prices` per
   * storefront as `offers.itunes` (a storefront not listed does not sell it); without them, $14.99
   * in every storefront.
   */
  appleAudiobook?: { id: number; name?: string; prices?: FakeOffers['itunes'] };
  olEdition?: string;
  olWork?: string;
  googleId?: string;
  appleId?: number;
  goodreads?: string;
  /** OCLC (WorldCat) number of the edition: the Books API's `OCLC:` bibkey and search `oclc:`. */
  oclc?: string;
  /** The Books API's OCLC table lacks the number (only the search index has it), as happens for real. */
  oclcSearchOnly?: boolean;
  /** Further OCLC numbers the edition lists after `oclc` (editions often carry several). */
  moreOclc?: string[];
  /** Library of Congress control number of the edition (Books API `identifiers.lccn`). */
  lccn?: string;
  /** Further ISBN-13s the Open Library edition lists after `isbn13` (a binding's own ISBN, say). */
  moreIsbns?: string[];
  /**
   * The edition has no ISBN at all (`isbn13` is then only the fake's own key): Open Library lists none,
   * Google none; the book is reached by its other identifiers.
   */
  withoutIsbn?: boolean;
  librarything?: string;
  /** The edition lists only its ISBN-10 (older books): Open Library `isbn_10` alone, Google `ISBN_10` alone. */
  isbn10Only?: boolean;
  /** Open Library's `edition_count` of the work (default: this edition and `workIsbns`); 0 for a stub work. */
  editionCount?: number;
  /**
   * Other editions of the work in other languages (translations): the work's search document lists
   * their ISBNs and languages with this edition's, in no order (theirs first, as the real index may).
   */
  translations?: { isbn13: string; language: string }[];
  /** Whether the search index names the matching edition under `editions` (default true). */
  searchEditions?: boolean;
  /**
   * Other editions' ISBNs on the same Open Library work (search documents list every edition's
   * ISBNs and edition keys, as the real index does).
   */
  workIsbns?: string[];
  /**
   * Google's own series of the volume, sent as `volumeInfo.seriesInfo` (id and number, never the
   * name, as Google sends it). Google's search finds a series' volumes by the series name, so the
   * fake's Google search matches `name` too; no answer carries it.
   */
  googleSeries?: GoogleSeries;
  /** Services that know the book; all of them by default. */
  only?: FakeService[];
  /** What the stores ask and the library lends (issue 47); without it the older default answers. */
  offers?: FakeOffers;
}

/**
 * Offers as the real APIs answer them. Google: `saleInfo` for the `country=` asked (a country not
 * listed answers NOT_FOR_SALE, as Google does), `missing` drops the prices and link of a FOR_SALE
 * answer (seen on pre-orders). iTunes: the storefront's `price`/`currency`/`formattedPrice`; a
 * storefront not listed answers no result at all. Open Library: the Read API item's `status`.
 */
export interface FakeOffers {
  google?: Record<string, FakeGoogleSale>;
  itunes?: Record<string, { price: number; currency: string; formattedPrice: string } | { missing: true }>;
  openlibrary?: 'full access' | 'lendable' | 'checked out' | 'restricted';
}

export interface FakeGoogleSale {
  saleability: 'FOR_SALE' | 'FREE' | 'NOT_FOR_SALE';
  /** [amount, currency] */
  list?: [number, string];
  retail?: [number, string];
  /** Prices and buy link left out (a FOR_SALE answer without them). */
  missing?: boolean;
  publicDomain?: boolean;
}

/** A volume's place in a Google series (`seriesInfo`): the series id, its name, this volume's number. */
export interface GoogleSeries {
  id: string;
  name: string;
  number: number;
}

/** `volumeInfo.seriesInfo` as Google sends it for a volume of one of its series. */
export function googleSeriesInfo(series: GoogleSeries): Record<string, unknown> {
  return {
    kind: 'books#volume_series_info',
    bookDisplayNumber: String(series.number),
    volumeSeries: [{ seriesId: series.id, seriesBookType: 'ISSUE', orderNumber: series.number }],
  };
}

export type FakeFailure =
  /** An error answer; `headers` and `body` as a real service sends them (Retry-After, Google's error JSON). */
  | { status: number; times?: number; headers?: Record<string, string>; body?: unknown }
  | { delayMs: number; times?: number }
  | { hang: true; times?: number };

export interface FakeProviderUrls {
  openLibraryUrl: string;
  openLibraryCoversUrl: string;
  googleBooksUrl: string;
  itunesUrl: string;
}

export interface FakeProviders {
  urls: FakeProviderUrls;
  /** The same URLs as environment variables, for loadConfig. */
  env: Record<string, string>;
  origin: string;
  addBook(book: FakeBook): void;
  /** Makes a service fail (`times` requests, or until cleared with null). */
  setFailure(service: FakeService, failure: FakeFailure | null): void;
  /** Requests seen by one service, or by all of them. */
  requestCount(service?: FakeService): number;
  /** Paths (with query) a service was asked, in order. */
  requests(service: FakeService): string[];
  /** When (Date.now()) each request reached a service, in order. */
  requestTimes(service: FakeService): number[];
  /** Serves `path` as a 301 to `location` (a short-link host stand-in). */
  addRedirect(path: string, location: string): void;
  /** Forgets books, failures, redirects and counts. */
  reset(): void;
  close(): Promise<void>;
}

/**
 * The fakes are local: tests ask them as often as they need to, and the provider budget tests set
 * their own budgets over these.
 */
export const NO_BUDGETS: Readonly<Record<string, string>> = {
  PROVIDER_BUDGET_OPENLIBRARY: 'off',
  PROVIDER_BUDGET_OPENLIBRARY_COVERS: 'off',
  PROVIDER_BUDGET_GOOGLEBOOKS: 'off',
  PROVIDER_BUDGET_ITUNES: 'off',
};

/** A valid 1×1 PNG: covers must be real image bytes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The iTunes storefronts' `country` as the API writes it: ISO 3166-1 alpha-3. */
const STOREFRONT_COUNTRIES: Readonly<Record<string, string>> = {
  us: 'USA',
  gb: 'GBR',
  ie: 'IRL',
  ca: 'CAN',
  au: 'AUS',
  nz: 'NZL',
  de: 'DEU',
  at: 'AUT',
  ch: 'CHE',
  fr: 'FRA',
  be: 'BEL',
  it: 'ITA',
  es: 'ESP',
  nl: 'NLD',
  jp: 'JPN',
  in: 'IND',
};

const PREFIXES: [string, FakeService][] = [
  ['/ol/', 'openlibrary'],
  ['/covers/', 'covers'],
  ['/google/', 'googlebooks'],
  ['/itunes/', 'itunes'],
  ['/r/', 'redirects'],
];

function knows(book: FakeBook, service: FakeService): boolean {
  if (!book.only) return true;
  return book.only.includes(service) || (service === 'covers' && book.only.includes('openlibrary'));
}

/** Open Library writes dates for people: "July 28, 2008", "March 2006", "2006". */
function olDate(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const [year, month, day] = iso.split('-');
  const monthName = month ? MONTHS[Number(month) - 1] : undefined;
  if (!monthName) return year;
  return day ? `${monthName} ${Number(day)}, ${year}` : `${monthName} ${year}`;
}

function coverId(book: FakeBook): number {
  return Number(book.isbn13.slice(-7));
}

function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function matches(book: FakeBook, text: string, field: 'any' | 'title' | 'author' = 'any'): boolean {
  const haystack = new Set(
    words(
      field === 'title'
        ? `${book.title} ${book.subtitle ?? ''}`
        : field === 'author'
          ? (book.authors ?? []).join(' ')
          : `${book.title} ${book.subtitle ?? ''} ${(book.authors ?? []).join(' ')} ${book.googleSeries?.name ?? ''}`,
    ),
  );
  return words(text).every((word) => haystack.has(word));
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export async function startFakeProviders(): Promise<FakeProviders> {
  const books = new Map<string, FakeBook>();
  const failures = new Map<FakeService, FakeFailure>();
  const redirects = new Map<string, string>();
  const log = new Map<FakeService, string[]>();
  const times = new Map<FakeService, number[]>();
  let origin = '';

  const known = (service: FakeService) => [...books.values()].filter((book) => knows(book, service));

  function olData(book: FakeBook): Record<string, unknown> {
    const edition = book.olEdition ?? `OL${coverId(book)}M`;
    const covers = `${origin}/covers/b/id/${coverId(book)}`;
    return {
      url: `${origin}/ol/books/${edition}`,
      key: `/books/${edition}`,
      title: book.title,
      ...(book.subtitle ? { subtitle: book.subtitle } : {}),
      authors: (book.authors ?? []).map((name, i) => ({ name, url: `${origin}/ol/authors/OL${i + 1}A` })),
      ...(book.pages ? { number_of_pages: book.pages } : {}),
      identifiers: {
        ...(book.withoutIsbn || book.isbn10Only ? {} : { isbn_13: [book.isbn13, ...(book.moreIsbns ?? [])] }),
        ...(book.isbn10 && !book.withoutIsbn ? { isbn_10: [book.isbn10] } : {}),
        openlibrary: [edition],
        ...(book.goodreads ? { goodreads: [book.goodreads] } : {}),
        ...(book.oclc ? { oclc: [book.oclc, ...(book.moreOclc ?? [])] } : {}),
        ...(book.lccn ? { lccn: [book.lccn] } : {}),
        ...(book.librarything ? { librarything: [book.librarything] } : {}),
      },
      ...(book.publisher ? { publishers: [{ name: book.publisher }] } : {}),
      ...(book.publishedDate ? { publish_date: olDate(book.publishedDate) } : {}),
      ...(book.cover === false
        ? {}
        : { cover: { small: `${covers}-S.jpg`, medium: `${covers}-M.jpg`, large: `${covers}-L.jpg` } }),
      ...(book.olWork ? { works: [{ key: `/works/${book.olWork}` }] } : {}),
    };
  }

  /** The edition an ISBN names: its first ISBN, or one of the further ones it lists. */
  const byIsbn = (isbn: string): FakeBook | undefined => {
    const book = books.get(isbn) ?? [...books.values()].find((b) => b.moreIsbns?.includes(isbn));
    return book?.withoutIsbn ? undefined : book;
  };

  const editionKey = (book: FakeBook) => book.olEdition ?? `OL${coverId(book)}M`;

  /** Open Library's three-letter language codes for the two-letter ones books are given in. */
  const MARC: Record<string, string> = { en: 'eng', de: 'ger', fr: 'fre', es: 'spa', it: 'ita', ja: 'jpn' };
  const marc = (language: string | undefined) => MARC[language ?? 'en'] ?? 'eng';

  /** The edition's own ISBNs, as a search answer's `editions.docs[].isbn` lists them. */
  const editionIsbns = (book: FakeBook) =>
    book.withoutIsbn
      ? []
      : [
          ...(book.isbn10Only ? [] : [book.isbn13, ...(book.moreIsbns ?? [])]),
          ...(book.isbn10 ? [book.isbn10] : []),
        ];

  /**
   * `fields=…,editions`: the real index then adds the edition that matched the query (in the `lang`
   * asked for when it has one). The work's own `isbn` and `language` lists hold every edition's values
   * in no order; a stub work has no `isbn`, `cover_i` or `author_name` at all.
   */
  function olSearchDoc(book: FakeBook, withEditions = false): Record<string, unknown> {
    const others = (book.workIsbns ?? []).map((isbn) => `OL${isbn.slice(-7)}M`);
    const translated = book.translations ?? [];
    const edition = {
      key: `/books/${editionKey(book)}`,
      title: book.title,
      ...(book.subtitle ? { subtitle: book.subtitle } : {}),
      ...(editionIsbns(book).length ? { isbn: editionIsbns(book) } : {}),
      language: [marc(book.language)],
      ...(book.cover === false ? {} : { cover_i: coverId(book) }),
    };
    const isbns = [...translated.map((t) => t.isbn13), ...(book.workIsbns ?? []), ...editionIsbns(book)];
    const languages = [...new Set([...translated.map((t) => marc(t.language)), marc(book.language)])];
    const authors = book.authors ?? [];
    // A stub work (no edition at all) has no edition keys and no languages either.
    const stub = book.editionCount === 0;
    return {
      key: `/works/${book.olWork ?? `OL${coverId(book)}W`}`,
      title: book.title,
      ...(book.subtitle ? { subtitle: book.subtitle } : {}),
      ...(authors.length ? { author_name: authors } : {}),
      ...(book.publishedDate ? { first_publish_year: Number(book.publishedDate.slice(0, 4)) } : {}),
      ...(isbns.length ? { isbn: isbns } : {}),
      ...(book.cover === false ? {} : { cover_i: coverId(book) }),
      edition_count: book.editionCount ?? 1 + others.length + translated.length,
      ...(stub
        ? {}
        : {
            edition_key: [...translated.map((t) => `OL${t.isbn13.slice(-7)}M`), ...others, editionKey(book)],
            language: languages,
          }),
      ...(book.publisher ? { publisher: [book.publisher] } : {}),
      ...(book.pages ? { number_of_pages_median: book.pages } : {}),
      ...(book.goodreads ? { id_goodreads: [book.goodreads] } : {}),
      // The search index lists every OCLC number of the work's editions, as the real one does.
      ...(book.oclc ? { oclc: [book.oclc, ...(book.moreOclc ?? [])] } : {}),
      ...(book.librarything ? { id_librarything: [book.librarything] } : {}),
      ...(withEditions && !stub
        ? { editions: { numFound: 1, start: 0, numFoundExact: true, docs: [edition] } }
        : {}),
    };
  }

  /** `field:value` queries on id fields (`id_goodreads:5907`, `oclc:123`), as the real index takes them. */
  const ID_FIELDS: Record<string, (book: FakeBook) => readonly (string | undefined)[]> = {
    id_goodreads: (book) => [book.goodreads],
    id_librarything: (book) => [book.librarything],
    oclc: (book) => [book.oclc, ...(book.moreOclc ?? [])],
  };
  function idQuery(q: string): ((book: FakeBook) => boolean) | null {
    const match = /^(\w+):(\S+)$/.exec(q.trim());
    const field = match?.[1] ? ID_FIELDS[match[1]] : undefined;
    const value = match?.[2];
    return field && value ? (book) => field(book).includes(value) : null;
  }

  /**
   * A volume as Google sends it: `pageCount: 0` when it counts no pages, `saleInfo` with prices where
   * the volume is for sale, links on the store of the answer's country.
   */
  /** `saleInfo` and `accessInfo` for the `country=` asked, from `offers.google` (Google's field set). */
  function googleSale(book: FakeBook, id: string, country: string): Record<string, unknown> {
    const sale = book.offers?.google?.[country] ?? { saleability: 'NOT_FOR_SALE' };
    const buyLink = `https://play.google.com/store/books/details?id=${id}&rdid=book-${id}&rdot=1&source=gbs_api`;
    const price = (value: [number, string] | undefined) =>
      value ? { amount: value[0], currencyCode: value[1] } : undefined;
    const micros = (value: [number, string] | undefined) =>
      value ? { amountInMicros: Math.round(value[0] * 1e6), currencyCode: value[1] } : undefined;
    const saleInfo =
      sale.saleability === 'FOR_SALE' && !sale.missing
        ? {
            country,
            saleability: 'FOR_SALE',
            isEbook: true,
            ...(sale.list ? { listPrice: price(sale.list) } : {}),
            ...(sale.retail ? { retailPrice: price(sale.retail) } : {}),
            buyLink,
            offers: [
              {
                finskyOfferType: 1,
                ...(sale.list ? { listPrice: micros(sale.list) } : {}),
                ...(sale.retail ? { retailPrice: micros(sale.retail) } : {}),
                giftable: true,
              },
            ],
          }
        : sale.saleability === 'FOR_SALE'
          ? { country, saleability: 'FOR_SALE', isEbook: true }
          : sale.saleability === 'FREE'
            ? { country, saleability: 'FREE', isEbook: true, buyLink }
            : { country, saleability: 'NOT_FOR_SALE', isEbook: false };
    const free = sale.saleability === 'FREE' || sale.publicDomain === true;
    const accessInfo = {
      country,
      viewability: free ? 'ALL_PAGES' : 'PARTIAL',
      embeddable: true,
      publicDomain: sale.publicDomain === true,
      textToSpeechPermission: 'ALLOWED',
      epub: free
        ? {
            isAvailable: true,
            downloadLink: `http://books.google.com/books/download/x.epub?id=${id}&output=epub`,
          }
        : {
            isAvailable: true,
            acsTokenLink: `http://books.google.com/books/download/x-sample-epub.acsm?id=${id}`,
          },
      pdf: { isAvailable: false },
      webReaderLink: `http://play.google.com/books/reader?id=${id}&hl=&source=gbs_api`,
      accessViewStatus: free ? 'FULL_PUBLIC_DOMAIN' : 'SAMPLE',
      quoteSharingAllowed: false,
    };
    return { saleInfo, accessInfo };
  }

  function googleVolume(book: FakeBook, country: string | null = null): Record<string, unknown> {
    const id = book.googleId ?? `gb${book.isbn13}`;
    const image = `http://books.google.com/books/content?id=${id}&printsec=frontcover&img=1&edge=curl&source=gbs_api`;
    const identifiers = book.withoutIsbn
      ? [{ type: 'OTHER', identifier: `UOM:${book.isbn13}` }]
      : [
          ...(book.isbn10 ? [{ type: 'ISBN_10', identifier: book.isbn10 }] : []),
          ...(book.isbn10Only ? [] : [{ type: 'ISBN_13', identifier: book.isbn13 }]),
        ];
    return {
      kind: 'books#volume',
      id,
      etag: `e${id.slice(-8)}`,
      selfLink: `https://www.googleapis.com/books/v1/volumes/${id}`,
      volumeInfo: {
        title: book.title,
        ...(book.subtitle ? { subtitle: book.subtitle } : {}),
        authors: book.authors ?? [],
        ...(book.publisher ? { publisher: book.publisher } : {}),
        ...(book.publishedDate ? { publishedDate: book.publishedDate } : {}),
        ...(book.description ? { description: book.description } : {}),
        industryIdentifiers: identifiers,
        readingModes: { text: false, image: false },
        pageCount: book.pages ?? 0,
        printType: 'BOOK',
        maturityRating: 'NOT_MATURE',
        imageLinks: { smallThumbnail: `${image}&zoom=5`, thumbnail: `${image}&zoom=1` },
        language: book.language ?? 'en',
        previewLink: `http://books.google.co.uk/books?id=${id}&printsec=frontcover&hl=&cd=1&source=gbs_api`,
        infoLink: `http://books.google.co.uk/books?id=${id}&hl=&source=gbs_api`,
        canonicalVolumeLink: `https://books.google.com/books/about/?hl=&id=${id}`,
        ...(book.googleSeries ? { seriesInfo: googleSeriesInfo(book.googleSeries) } : {}),
      },
      saleInfo:
        book.format === 'ebook'
          ? {
              country: 'GB',
              saleability: 'FOR_SALE',
              isEbook: true,
              listPrice: { amount: 9.99, currencyCode: 'GBP' },
              retailPrice: { amount: 6.99, currencyCode: 'GBP' },
              buyLink: `https://play.google.com/store/books/details?id=${id}&rdid=book-${id}&rdot=1&source=gbs_api`,
            }
          : { country: 'GB', saleability: 'NOT_FOR_SALE', isEbook: false },
      accessInfo: { country: 'GB', viewability: 'NO_PAGES', embeddable: false, publicDomain: false },
      ...(book.offers && country ? googleSale(book, id, country) : {}),
    };
  }

  /** The storefront's price of a book (`offers.itunes`), or null when that storefront does not sell it. */
  function itunesStorefront(book: FakeBook, country: string | null): Record<string, unknown> | null {
    if (!book.offers?.itunes) return {};
    const front = book.offers.itunes[(country ?? 'us').toUpperCase()];
    if (!front) return null;
    if ('missing' in front) return { price: undefined, currency: undefined, formattedPrice: undefined };
    return { price: front.price, currency: front.currency, formattedPrice: front.formattedPrice };
  }

  /**
   * An audiobook as the real Lookup and Search APIs list one (recorded answers): `wrapperType:
   * "audiobook"`, `collectionId`, `collectionName` and `collectionCensoredName`, one `artistId`,
   * `collectionPrice` (none when the storefront names no price), `currency`, `collectionViewUrl`,
   * `country` in three letters; no `kind`, no `trackId`, no `price`, no `formattedPrice`.
   */
  function audiobookResult(
    book: FakeBook,
    id: number,
    name: string,
    priced: { price?: unknown; currency?: unknown },
    country: string | null,
  ): Record<string, unknown> {
    const front = (country ?? 'us').toLowerCase();
    const authors = book.authors ?? [];
    const artistId = 2_000_000 + (authors[0]?.length ?? 0) * 1000;
    const art = `https://is1-ssl.mzstatic.com/image/thumb/Music116/v4/${book.isbn13}/source/100x100bb.jpg`;
    const date = book.publishedDate ? `${`${book.publishedDate}-01-01`.slice(0, 10)}T07:00:00Z` : undefined;
    return {
      wrapperType: 'audiobook',
      ...(authors.length ? { artistId } : {}),
      collectionId: id,
      artistName:
        authors.length > 1 ? `${authors.slice(0, -1).join(', ')} & ${authors.at(-1)}` : (authors[0] ?? ''),
      collectionName: name,
      collectionCensoredName: name,
      ...(authors.length
        ? {
            artistViewUrl: `https://books.apple.com/${front}/author/${words(authors[0] ?? '').join('-')}/id${artistId}?uo=4`,
          }
        : {}),
      collectionViewUrl: `https://books.apple.com/${front}/audiobook/${words(name).join('-')}/id${id}?uo=4`,
      artworkUrl60: art.replace('100x100', '60x60'),
      artworkUrl100: art,
      ...(typeof priced.price === 'number' ? { collectionPrice: priced.price } : {}),
      collectionExplicitness: 'notExplicit',
      trackCount: 1,
      copyright: `℗ ${book.publishedDate?.slice(0, 4) ?? '2020'} ${book.publisher ?? 'Audio Publisher'}`,
      country: STOREFRONT_COUNTRIES[front] ?? front.toUpperCase(),
      ...(typeof priced.currency === 'string' ? { currency: priced.currency } : {}),
      ...(date ? { releaseDate: date } : {}),
      primaryGenreName: 'Fiction',
      previewUrl: `https://audio-ssl.itunes.apple.com/itunes-assets/AudioPreview/v4/${id}/mzaf_${id}.std.aac.p.m4a`,
      ...(book.description ? { description: book.description } : {}),
    };
  }

  /** The book's own audiobook (`appleAudiobook`) in one storefront, or null where it is not sold. */
  function appleAudiobookResult(book: FakeBook, country: string | null): Record<string, unknown> | null {
    const audio = book.appleAudiobook;
    if (!audio) return null;
    const prices = audio.prices;
    const front = prices ? prices[(country ?? 'us').toUpperCase()] : { price: 14.99, currency: 'USD' };
    if (!front) return null;
    const priced = 'missing' in front ? { currency: undefined } : front;
    return audiobookResult(book, audio.id, audio.name ?? `${book.title} (Unabridged)`, priced, country);
  }

  function itunesResult(book: FakeBook, country: string | null = null): Record<string, unknown> {
    const id = book.appleId ?? Number(book.isbn13.slice(-9));
    const art = `https://is1-ssl.mzstatic.com/image/thumb/Publication/v4/${book.isbn13}/source/100x100bb.jpg`;
    const date = book.publishedDate ? `${`${book.publishedDate}-01-01`.slice(0, 10)}T07:00:00Z` : undefined;
    const authors = book.authors ?? [];
    // One id per author; the names joined into one, "A & B" or "A, B & C". No ratings for most books.
    const artistIds = authors.map((name, i) => 1_000_000 + i + name.length * 1000);
    const common = {
      ...(artistIds.length ? { artistIds, artistId: artistIds[0] } : {}),
      artistName:
        authors.length > 1 ? `${authors.slice(0, -1).join(', ')} & ${authors.at(-1)}` : (authors[0] ?? ''),
      price: 9.99,
      currency: 'USD',
      formattedPrice: '$9.99',
      artworkUrl100: art,
      artworkUrl60: art.replace('100x100', '60x60'),
      ...(date ? { releaseDate: date } : {}),
      ...(book.description ? { description: `<p>${book.description}</p>` } : {}),
    };
    const front = (country ?? 'us').toLowerCase();
    const slug = words(book.title).join('-');
    const priced = itunesStorefront(book, country) ?? {};
    if (book.format === 'audiobook') {
      const price = { price: 9.99, currency: 'USD', ...priced };
      return audiobookResult(book, id, book.title, price, country);
    }
    return {
      kind: 'ebook',
      wrapperType: 'track',
      trackId: id,
      trackName: book.title,
      trackViewUrl: `https://books.apple.com/${front}/book/${slug}/id${id}?uo=4`,
      ...common,
      ...priced,
    };
  }

  function openLibrary(url: URL, res: ServerResponse): void {
    if (url.pathname === '/ol/api/books') {
      const body: Record<string, unknown> = {};
      for (const key of (url.searchParams.get('bibkeys') ?? '').split(',')) {
        // `OLID:OL123M` names an edition by its Open Library id, `ISBN:…` by its ISBN.
        const olid = /^OLID:(.+)$/.exec(key)?.[1];
        const oclc = /^OCLC:(.+)$/.exec(key)?.[1];
        const book = olid
          ? [...books.values()].find((b) => editionKey(b) === olid)
          : oclc
            ? [...books.values()].find(
                (b) => (b.oclc === oclc || b.moreOclc?.includes(oclc)) && !b.oclcSearchOnly,
              )
            : byIsbn(key.replace(/^ISBN:/, ''));
        if (book && knows(book, 'openlibrary')) body[key] = olData(book);
      }
      json(res, 200, body);
      return;
    }
    const readIsbn = /^\/ol\/api\/volumes\/brief\/isbn\/([\dX]{10,13})\.json$/.exec(url.pathname)?.[1];
    if (readIsbn) {
      // The Read API: `[]` for an ISBN it does not know; the record and its scanned items otherwise.
      const book = byIsbn(readIsbn);
      if (!book || !knows(book, 'openlibrary')) {
        json(res, 200, []);
        return;
      }
      const edition = editionKey(book);
      const work = book.olWork ?? `OL${coverId(book)}W`;
      const status = book.offers?.openlibrary;
      const ia = `${words(book.title).join('')}00${coverId(book)}`;
      json(res, 200, {
        records: {
          [`/books/${edition}`]: {
            isbns: [book.isbn13],
            issns: [],
            lccns: [],
            oclcs: book.oclc ? [book.oclc] : [],
            olids: [edition],
            publishDates: book.publishedDate ? [olDate(book.publishedDate)] : [],
            recordURL: `https://openlibrary.org/books/${edition}/${words(book.title).join('_')}`,
            data: olData(book),
          },
        },
        items: status
          ? [
              {
                enumcron: false,
                match: 'exact',
                status,
                fromRecord: `/books/${edition}`,
                'ol-edition-id': edition,
                'ol-work-id': work,
                publishDate: olDate(book.publishedDate) ?? '',
                contributor: 'Internet Archive',
                itemURL: `https://archive.org/details/${ia}`,
                cover: { small: `https://covers.openlibrary.org/b/id/${coverId(book)}-S.jpg` },
              },
            ]
          : [],
      });
      return;
    }
    if (url.pathname === '/ol/search.json') {
      const q = url.searchParams;
      const byId = idQuery(q.get('q') ?? '');
      const withEditions = (q.get('fields') ?? '').split(',').includes('editions');
      const docs = known('openlibrary')
        .filter((book) => (byId ? byId(book) : matches(book, q.get('q') ?? '')))
        .filter((book) => matches(book, q.get('title') ?? '', 'title'))
        .filter((book) => matches(book, q.get('author') ?? '', 'author'))
        .slice(0, Number(q.get('limit') ?? 100))
        // An id query names the matching edition only when the index has it (`searchEditions`).
        .map((book) => olSearchDoc(book, withEditions && (byId === null || book.searchEditions !== false)));
      json(res, 200, { numFound: docs.length, start: 0, numFoundExact: true, docs });
      return;
    }
    json(res, 404, { error: 'notfound' });
  }

  function covers(url: URL, res: ServerResponse): void {
    const byId = /^\/covers\/b\/id\/(\d+)-[SML]\.jpg$/.exec(url.pathname);
    const byIsbn = /^\/covers\/b\/isbn\/(\d{13})-[SML]\.jpg$/.exec(url.pathname);
    const book = byId
      ? known('covers').find((candidate) => String(coverId(candidate)) === byId[1])
      : byIsbn
        ? books.get(byIsbn[1] ?? '')
        : undefined;
    if (!book || book.cover === false || !knows(book, 'covers')) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      return void res.end('Not Found');
    }
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
    res.end(PNG);
  }

  function googleMatches(book: FakeBook, q: string): boolean {
    const isbn = /isbn:(\S+)/.exec(q)?.[1];
    if (isbn) return !book.withoutIsbn && (book.isbn13 === isbn || book.isbn10 === isbn);
    const title = /intitle:(.*?)(?=\s+in(title|author):|$)/.exec(q)?.[1] ?? '';
    const author = /inauthor:(.*?)(?=\s+in(title|author):|$)/.exec(q)?.[1] ?? '';
    const free = q.replace(/in(title|author):.*$/, '');
    return matches(book, title, 'title') && matches(book, author, 'author') && matches(book, free);
  }

  function google(url: URL, res: ServerResponse): void {
    const volumeId = /^\/google\/books\/v1\/volumes\/([^/]+)$/.exec(url.pathname)?.[1];
    if (volumeId) {
      const book = known('googlebooks').find((b) => (b.googleId ?? `gb${b.isbn13}`) === volumeId);
      if (book) json(res, 200, googleVolume(book));
      else json(res, 404, { error: { code: 404, message: 'The volume ID could not be found.' } });
      return;
    }
    if (url.pathname !== '/google/books/v1/volumes') {
      json(res, 404, { error: { code: 404 } });
      return;
    }
    const q = url.searchParams.get('q') ?? '';
    if (!q) {
      json(res, 400, { error: { code: 400, message: 'Missing query.' } });
      return;
    }
    const max = Number(url.searchParams.get('maxResults') ?? 10);
    const items = known('googlebooks')
      .filter((book) => googleMatches(book, q))
      .slice(0, max)
      .map((book) => googleVolume(book, url.searchParams.get('country')?.toUpperCase() ?? null));
    // Like Google: no `items` key at all when nothing matched.
    json(res, 200, { kind: 'books#volumes', totalItems: items.length, ...(items.length ? { items } : {}) });
  }

  function itunes(url: URL, res: ServerResponse): void {
    const q = url.searchParams;
    let results: Record<string, unknown>[] = [];
    if (url.pathname === '/itunes/lookup') {
      const id = q.get('id');
      const country = q.get('country');
      const audiobook = id ? known('itunes').find((b) => String(b.appleAudiobook?.id) === id) : undefined;
      const book = id
        ? [...books.values()].find((b) => String(b.appleId ?? Number(b.isbn13.slice(-9))) === id)
        : books.get(q.get('isbn') ?? '');
      // A storefront that does not sell the book answers no result at all.
      const sold = book && (!country || itunesStorefront(book, country) !== null);
      const own = audiobook ? appleAudiobookResult(audiobook, country) : null;
      results = own ? [own] : book && sold && knows(book, 'itunes') ? [itunesResult(book, country)] : [];
    } else if (url.pathname === '/itunes/search') {
      const media = q.get('media') === 'audiobook' ? 'audiobook' : 'ebook';
      const country = q.get('country');
      const term = q.get('term') ?? '';
      results = known('itunes')
        .filter((book) => matches(book, term))
        .flatMap((book) => {
          if ((book.format ?? 'ebook') === media) return [itunesResult(book, country)];
          const own = media === 'audiobook' ? appleAudiobookResult(book, country) : null;
          return own ? [own] : [];
        })
        .slice(0, Number(q.get('limit') ?? 50));
    } else {
      json(res, 404, { errorMessage: 'Invalid request' });
      return;
    }
    json(res, 200, { resultCount: results.length, results });
  }

  const handlers: Record<FakeService, (url: URL, res: ServerResponse) => void> = {
    openlibrary: openLibrary,
    covers,
    googlebooks: google,
    itunes,
    redirects: (url, res) => {
      const location = redirects.get(url.pathname);
      if (!location) return json(res, 404, {});
      res.writeHead(301, { location, 'content-type': 'text/html' });
      res.end('<a href="">moved</a>');
    },
  };

  /** Applies a configured failure; answers true when the request is already dealt with. */
  async function fail(service: FakeService, res: ServerResponse): Promise<boolean> {
    const failure = failures.get(service);
    if (!failure) return false;
    if (failure.times !== undefined) {
      if (failure.times <= 1) failures.delete(service);
      else failures.set(service, { ...failure, times: failure.times - 1 });
    }
    if ('hang' in failure) return true;
    if ('delayMs' in failure) {
      await new Promise((resolve) => setTimeout(resolve, failure.delayMs));
      return res.destroyed;
    }
    res.writeHead(failure.status, { 'content-type': 'application/json; charset=utf-8', ...failure.headers });
    res.end(JSON.stringify(failure.body ?? { error: `simulated ${failure.status}` }));
    return true;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const service = PREFIXES.find(([prefix]) => url.pathname.startsWith(prefix))?.[1];
    if (!service) return json(res, 404, { error: 'unknown service' });
    const paths = log.get(service) ?? [];
    paths.push(`${url.pathname}${url.search}`);
    log.set(service, paths);
    const stamps = times.get(service) ?? [];
    stamps.push(Date.now());
    times.set(service, stamps);
    if (await fail(service, res)) return;
    handlers[service](url, res);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => json(res, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const urls: FakeProviderUrls = {
    openLibraryUrl: `${origin}/ol`,
    openLibraryCoversUrl: `${origin}/covers`,
    googleBooksUrl: `${origin}/google`,
    itunesUrl: `${origin}/itunes`,
  };

  return {
    urls,
    env: {
      OPENLIBRARY_URL: urls.openLibraryUrl,
      OPENLIBRARY_COVERS_URL: urls.openLibraryCoversUrl,
      GOOGLE_BOOKS_URL: urls.googleBooksUrl,
      ITUNES_URL: urls.itunesUrl,
      ...NO_BUDGETS,
      // Offers read in the background would add requests the older tests do not expect.
      OFFER_SOURCES: 'off',
    },
    origin,
    addBook: (book) => void books.set(book.isbn13, book),
    setFailure: (service, failure) =>
      void (failure ? failures.set(service, failure) : failures.delete(service)),
    requestCount: (service) =>
      service
        ? (log.get(service)?.length ?? 0)
        : [...log.values()].reduce((sum, paths) => sum + paths.length, 0),
    requests: (service) => [...(log.get(service) ?? [])],
    requestTimes: (service) => [...(times.get(service) ?? [])],
    addRedirect: (path, location) => void redirects.set(path, location),
    reset: () => {
      books.clear();
      failures.clear();
      redirects.clear();
      log.clear();
      times.clear();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}

/**
 * One book as catalog-backed fakes know it (the evaluation builds them from catalog rows). Each
 * field is something the real service answers: Open Library search documents are works (title,
 * author_name, first_publish_year, every edition's ISBNs, edition_count); Google volumes carry
 * title, subtitle, authors, industryIdentifiers and publishedDate; iTunes a track name and artist.
 * No field carries knowledge the real APIs lack: series notes only where the caller puts them
 * into a Google subtitle, as Google prints them for some volumes, and Google's `seriesInfo` (a
 * series id and number, no name) only for the volumes the caller places in a Google series.
 */
export interface CatalogFakeBook {
  /** Stable id of the work (Open Library work key `OL<id>W`). */
  id: string;
  isbn13: string | null;
  isbn10: string | null;
  title: string;
  authors: string[];
  year: number | null;
  editionCount: number;
  language?: string;
  /** Google's subtitle for this volume ("Vampire Academy, Book 2"), when it has one. */
  googleSubtitle?: string;
  /** Google's own series of this volume (`seriesInfo`), when Google places it in one. */
  googleSeries?: GoogleSeries;
}

export interface CatalogProviders {
  env: Record<string, string>;
  urls: FakeProviderUrls;
  requestCount(service?: FakeService): number;
  /** Every request fails (status) or waits (delay) until cleared with null. */
  setFailure(service: FakeService, failure: FakeFailure | null): void;
  close(): Promise<void>;
}

/** Search words as the fakes index them: folded, apostrophes dropped, split at non-letters. */
function searchWords(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

interface IndexedBook {
  book: CatalogFakeBook;
  title: Set<string>;
  googleTitle: Set<string>;
  googleSeries: Set<string>;
  author: Set<string>;
  titleLength: number;
}

/**
 * Relevance order as a search engine gives it: the title that is the query first, then titles
 * mostly made of the query's words, then the work with more editions. No spelling correction.
 */
function relevanceOrder(query: string[], found: IndexedBook[]): IndexedBook[] {
  const score = (entry: IndexedBook) => {
    const inTitle = query.filter((word) => entry.title.has(word)).length;
    const exact = inTitle === entry.titleLength && inTitle === query.length ? 2 : 0;
    return exact + inTitle / Math.max(1, entry.titleLength) + 0.1 * Math.log10(1 + entry.book.editionCount);
  };
  return found
    .map((entry) => ({ entry, score: score(entry) }))
    .sort((a, b) => b.score - a.score)
    .map(({ entry }) => entry);
}

const hasAll = (words: string[], ...sets: Set<string>[]) =>
  words.every((word) => sets.some((set) => set.has(word)));

/**
 * Open Library, Google Books and iTunes search and ISBN lookup over a fixed list of books, as the
 * real APIs answer: every query word must be found (Open Library's q=, Google's q= with its
 * intitle:/inauthor: operators, iTunes' term), nothing corrects spelling, relevance order.
 */
export async function startCatalogProviders(books: readonly CatalogFakeBook[]): Promise<CatalogProviders> {
  const indexed: IndexedBook[] = books.map((book) => {
    const title = searchWords(book.title);
    return {
      book,
      title: new Set(title),
      googleTitle: new Set([...title, ...searchWords(book.googleSubtitle ?? '')]),
      // Google's free-text search finds a volume by the name of the series it places it in.
      googleSeries: new Set(searchWords(book.googleSeries?.name ?? '')),
      author: new Set(searchWords(book.authors.join(' '))),
      titleLength: new Set(title).size,
    };
  });
  const byIsbn = new Map<string, CatalogFakeBook>();
  for (const book of books) {
    if (book.isbn13) byIsbn.set(book.isbn13, book);
    if (book.isbn10) byIsbn.set(book.isbn10, book);
  }
  const failures = new Map<FakeService, FakeFailure>();
  const counts = new Map<FakeService, number>();
  let origin = '';

  const catalogIsbns = (book: CatalogFakeBook) =>
    [book.isbn13, book.isbn10].filter((v): v is string => v !== null);
  /**
   * A work's search document; with `fields=…,editions` the index adds the edition that matched. A
   * work without authors or ISBNs has no `author_name` or `isbn` at all; none has a `cover_i` here.
   */
  const olDoc = (book: CatalogFakeBook, withEditions: boolean) => ({
    key: `/works/OL${book.id}W`,
    title: book.title,
    ...(book.authors.length ? { author_name: book.authors } : {}),
    ...(book.year !== null ? { first_publish_year: book.year } : {}),
    ...(catalogIsbns(book).length ? { isbn: catalogIsbns(book) } : {}),
    edition_count: book.editionCount,
    ...(book.language ? { language: [book.language] } : {}),
    ...(withEditions
      ? {
          editions: {
            numFound: 1,
            start: 0,
            numFoundExact: true,
            docs: [
              {
                key: `/books/OL${book.id}M`,
                title: book.title,
                ...(catalogIsbns(book).length ? { isbn: catalogIsbns(book) } : {}),
                ...(book.language ? { language: [book.language] } : {}),
              },
            ],
          },
        }
      : {}),
  });
  const googleItem = (book: CatalogFakeBook) => ({
    kind: 'books#volume',
    id: `gb${book.id}`,
    volumeInfo: {
      title: book.title,
      ...(book.googleSubtitle ? { subtitle: book.googleSubtitle } : {}),
      authors: book.authors,
      ...(book.year !== null && book.year > 0 ? { publishedDate: String(book.year) } : {}),
      industryIdentifiers: [
        ...(book.isbn13 ? [{ type: 'ISBN_13', identifier: book.isbn13 }] : []),
        ...(book.isbn10 ? [{ type: 'ISBN_10', identifier: book.isbn10 }] : []),
      ],
      printType: 'BOOK',
      language: book.language ?? 'en',
      ...(book.googleSeries ? { seriesInfo: googleSeriesInfo(book.googleSeries) } : {}),
    },
  });
  const itunesItem = (book: CatalogFakeBook) => ({
    kind: 'ebook',
    wrapperType: 'track',
    trackId: Number(book.id) + 100_000_000,
    trackName: book.title,
    artistIds: book.authors.map((_, i) => Number(book.id) * 10 + i),
    artistName:
      book.authors.length > 1
        ? `${book.authors.slice(0, -1).join(', ')} & ${book.authors.at(-1)}`
        : (book.authors[0] ?? ''),
    ...(book.year !== null && book.year > 0 ? { releaseDate: `${book.year}-01-01T07:00:00Z` } : {}),
  });

  function openLibrary(url: URL): unknown {
    if (url.pathname === '/ol/api/books') {
      const body: Record<string, unknown> = {};
      for (const key of (url.searchParams.get('bibkeys') ?? '').split(',')) {
        const book = byIsbn.get(key.replace(/^ISBN:/, ''));
        if (book) {
          body[key] = {
            key: `/books/OL${book.id}M`,
            title: book.title,
            authors: book.authors.map((name) => ({ name })),
            identifiers: {
              isbn_13: book.isbn13 ? [book.isbn13] : [],
              isbn_10: book.isbn10 ? [book.isbn10] : [],
            },
            ...(book.year !== null ? { publish_date: String(book.year) } : {}),
            works: [{ key: `/works/OL${book.id}W` }],
          };
        }
      }
      return body;
    }
    const q = url.searchParams;
    const free = searchWords(q.get('q') ?? '');
    const title = searchWords(q.get('title') ?? '');
    const author = searchWords(q.get('author') ?? '');
    if (free.length + title.length + author.length === 0) return { numFound: 0, docs: [] };
    const found = indexed.filter(
      (e) => hasAll(free, e.title, e.author) && hasAll(title, e.title) && hasAll(author, e.author),
    );
    const withEditions = (q.get('fields') ?? '').split(',').includes('editions');
    const docs = relevanceOrder([...free, ...title], found)
      .slice(0, Number(q.get('limit') ?? 100))
      .map((e) => olDoc(e.book, withEditions));
    return { numFound: found.length, start: 0, numFoundExact: true, docs };
  }

  function google(url: URL): unknown {
    const q = url.searchParams.get('q') ?? '';
    const isbn = /isbn:(\S+)/.exec(q)?.[1];
    let found: IndexedBook[];
    let words: string[] = [];
    if (isbn) {
      const book = byIsbn.get(isbn);
      found = indexed.filter((e) => e.book === book);
    } else {
      const title = searchWords(/intitle:(.*?)(?=\s+in(?:title|author):|$)/.exec(q)?.[1] ?? '');
      const author = searchWords(/inauthor:(.*?)(?=\s+in(?:title|author):|$)/.exec(q)?.[1] ?? '');
      const free = searchWords(q.replace(/\s*in(?:title|author):.*$/, ''));
      words = [...free, ...title];
      found = indexed.filter(
        (e) =>
          hasAll(free, e.googleTitle, e.author, e.googleSeries) &&
          hasAll(title, e.googleTitle) &&
          hasAll(author, e.author),
      );
    }
    const max = Number(url.searchParams.get('maxResults') ?? 10);
    const items = relevanceOrder(words, found)
      .slice(0, max)
      .map((e) => googleItem(e.book));
    return { kind: 'books#volumes', totalItems: found.length, ...(items.length ? { items } : {}) };
  }

  function itunes(url: URL): unknown {
    const q = url.searchParams;
    if (url.pathname === '/itunes/lookup') {
      const book = byIsbn.get(q.get('isbn') ?? '');
      const results = book ? [itunesItem(book)] : [];
      return { resultCount: results.length, results };
    }
    // The catalog's books are sold as ebooks; the audiobook store answers nothing.
    if (q.get('media') === 'audiobook') return { resultCount: 0, results: [] };
    const term = searchWords(q.get('term') ?? '');
    const found = term.length ? indexed.filter((e) => hasAll(term, e.title, e.author)) : [];
    const results = relevanceOrder(term, found)
      .slice(0, Number(q.get('limit') ?? 50))
      .map((e) => itunesItem(e.book));
    return { resultCount: results.length, results };
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const service = PREFIXES.find(([prefix]) => url.pathname.startsWith(prefix))?.[1];
    if (!service || service === 'covers' || service === 'redirects') return json(res, 404, {});
    counts.set(service, (counts.get(service) ?? 0) + 1);
    const answer = () => {
      const handler = service === 'openlibrary' ? openLibrary : service === 'googlebooks' ? google : itunes;
      json(res, 200, handler(url));
    };
    const failure = failures.get(service);
    if (!failure) return answer();
    if ('hang' in failure) return;
    if ('delayMs' in failure) return void setTimeout(() => !res.destroyed && answer(), failure.delayMs);
    json(res, failure.status, { error: `simulated ${failure.status}` });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const urls: FakeProviderUrls = {
    openLibraryUrl: `${origin}/ol`,
    openLibraryCoversUrl: `${origin}/covers`,
    googleBooksUrl: `${origin}/google`,
    itunesUrl: `${origin}/itunes`,
  };
  return {
    urls,
    env: {
      OPENLIBRARY_URL: urls.openLibraryUrl,
      OPENLIBRARY_COVERS_URL: urls.openLibraryCoversUrl,
      GOOGLE_BOOKS_URL: urls.googleBooksUrl,
      ITUNES_URL: urls.itunesUrl,
      ...NO_BUDGETS,
    },
    requestCount: (service) =>
      service ? (counts.get(service) ?? 0) : [...counts.values()].reduce((a, b) => a + b, 0),
    setFailure: (service, failure) =>
      void (failure ? failures.set(service, failure) : failures.delete(service)),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}
