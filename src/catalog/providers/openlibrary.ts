import { type Isbn, parseIsbn } from '../../domain/isbn.js';
import { scriptLanguage } from '../../domain/languages.js';
import type { HttpClient } from '../http-client.js';
import { type BookRecord, emptyRecord, type MetadataProvider, type SearchQuery } from '../types.js';
import {
  arr,
  endpoint,
  formatFromText,
  type Json,
  languageCode,
  markdownText,
  normaliseDate,
  num,
  obj,
  positiveInt,
  str,
  strings,
} from './normalise.js';

const NAME = 'openlibrary';
/** The edition language asked for when neither the reader's language nor the query's script names one. */
const DEFAULT_LANGUAGE = 'en';
const SEARCH_FIELDS =
  'key,title,subtitle,author_name,first_publish_year,isbn,cover_i,edition_key,ia,publisher,language,' +
  'number_of_pages_median,id_goodreads,id_amazon,edition_count';
/**
 * The edition the index chose for each work (`editions` of a search answer): the one that matched
 * the query, in the `lang` asked for when the work has one. A work's own lists (`isbn`, `language`)
 * gather every edition's values in no order, so they never tell which edition is the work's.
 */
const EDITION_FIELDS =
  'editions,editions.key,editions.title,editions.subtitle,editions.isbn,editions.language,editions.cover_i,' +
  'editions.publisher';

/** Search fields that hold another catalogue's id for an edition. */
export type IdField = 'oclc' | 'id_goodreads' | 'id_librarything';

export interface OpenLibraryOptions {
  baseUrl: string;
  coversUrl: string;
  client: HttpClient;
}

/** "/books/OL123M" or "/works/OL45W" → "OL123M" / "OL45W". */
function olid(key: unknown): string | null {
  return str(key)?.split('/').pop() ?? null;
}

function firstOf(identifiers: Json | null, scheme: string): string | null {
  return strings(identifiers?.[scheme])[0] ?? null;
}

/** The Internet Archive id: `ocaid` (details format) or the id in an ebook's archive.org link. */
function archiveId(data: Json): string | null {
  const ocaid = str(data.ocaid);
  if (ocaid) return ocaid;
  for (const ebook of arr(data.ebooks)) {
    const match = /archive\.org\/details\/([^/?#]+)/.exec(str(obj(ebook)?.preview_url) ?? '');
    if (match?.[1]) return match[1];
  }
  return null;
}

/** Open Library answers cover id -1 when it has none; never keep that placeholder. */
function coverOf(data: Json): string | null {
  const cover = obj(data.cover);
  const url = str(cover?.large) ?? str(cover?.medium) ?? str(cover?.small);
  return url && !/\/b\/id\/-1-/.test(url) ? url : null;
}

function identifiersOf(data: Json): Record<string, string> {
  const ids = obj(data.identifiers);
  const found: Record<string, string | null> = {
    ol_edition: firstOf(ids, 'openlibrary') ?? olid(data.key),
    ol_work: olid(obj(arr(data.works)[0])?.key),
    goodreads: firstOf(ids, 'goodreads'),
    librarything: firstOf(ids, 'librarything'),
    worldcat: firstOf(ids, 'oclc'),
    asin: firstOf(ids, 'amazon'),
    ia: archiveId(data),
  };
  return Object.fromEntries(
    Object.entries(found).filter((entry): entry is [string, string] => entry[1] !== null),
  );
}

/** Books API identifier lists kept for the identifier index, under its scheme names. */
const INDEXED_LISTS: Readonly<Record<string, string>> = {
  openlibrary: 'ol_edition',
  oclc: 'oclc',
  lccn: 'lccn',
  goodreads: 'goodreads',
  librarything: 'librarything',
  amazon: 'asin',
  google: 'google_volume',
};

/** Every value of every identifier list the edition carries (an edition may list two OCLC numbers). */
function allIdentifiersOf(data: Json, identifiers: Record<string, string>): [string, string][] {
  const ids = obj(data.identifiers);
  const pairs: [string, string][] = [];
  for (const value of [...strings(ids?.isbn_13), ...strings(ids?.isbn_10)]) {
    const isbn = parseIsbn(value);
    if (isbn) pairs.push(['isbn13', isbn.isbn13]);
    if (isbn?.isbn10) pairs.push(['isbn10', isbn.isbn10]);
  }
  for (const [list, scheme] of Object.entries(INDEXED_LISTS)) {
    for (const value of strings(ids?.[list])) pairs.push([scheme, value]);
  }
  for (const scheme of ['ol_edition', 'ol_work', 'ia']) {
    const value = identifiers[scheme];
    if (value) pairs.push([scheme, value]);
  }
  return pairs;
}

/** Open Library's descriptions are Markdown, a string or a `{type: "/type/text", value}` object. */
function descriptionOf(data: Json): string | null {
  return markdownText(data.description);
}

/**
 * The edition's ISBNs in both forms: an edition may list only `isbn_10` (older books) or only
 * `isbn_13`, and each form is derived from the other, so the edition is one book by either ISBN.
 */
function editionIsbns(ids: Json | null): Isbn | null {
  const thirteen = strings(ids?.isbn_13)
    .map(parseIsbn)
    .find((isbn) => isbn !== null);
  if (thirteen) return thirteen;
  return (
    strings(ids?.isbn_10)
      .map(parseIsbn)
      .find((isbn) => isbn !== null) ?? null
  );
}

/** Maps one entry of the Books API `jscmd=data` answer. */
export function openLibraryDataToRecord(data: Json, isbn?: Isbn): BookRecord | null {
  const title = str(data.title);
  if (!title) return null;
  const identifiers = identifiersOf(data);
  const isbns = isbn ?? editionIsbns(obj(data.identifiers));
  return {
    ...emptyRecord(NAME, title),
    isbn13: isbns?.isbn13 ?? null,
    isbn10: isbns?.isbn10 ?? null,
    subtitle: str(data.subtitle),
    authors: arr(data.authors)
      .map((author) => str(obj(author)?.name))
      .filter((name): name is string => name !== null),
    publishedDate: normaliseDate(data.publish_date),
    publisher: str(obj(arr(data.publishers)[0])?.name),
    coverUrl: coverOf(data),
    language: languageCode(obj(arr(data.languages)[0])?.key),
    format: formatFromText(data.physical_format),
    pages: positiveInt(data.number_of_pages),
    description: descriptionOf(data),
    identifiers,
    workKey: identifiers.ol_work ?? null,
    allIdentifiers: allIdentifiersOf(data, identifiers),
  };
}

/** The valid ISBNs of a list, in both forms; the first of each edition once. */
function validIsbns(values: string[]): Isbn[] {
  const seen = new Set<string>();
  const found: Isbn[] = [];
  for (const value of values) {
    const isbn = parseIsbn(value);
    if (isbn && !seen.has(isbn.isbn13)) {
      seen.add(isbn.isbn13);
      found.push(isbn);
    }
  }
  return found;
}

/**
 * The edition a search document answers with: the one the index matched (`editions.docs[0]`), else
 * the work's only edition. A work's `isbn` list holds every edition's ISBNs in no order (translations,
 * audio, large print among them), so of several it picks none.
 */
function chosenEdition(doc: Json): { isbn: Isbn | null; key: string | null; edition: Json | null } {
  const edition = obj(arr(obj(doc.editions)?.docs)[0]);
  if (edition) return { isbn: validIsbns(strings(edition.isbn))[0] ?? null, key: olid(edition.key), edition };
  const isbns = validIsbns(strings(doc.isbn));
  const keys = strings(doc.edition_key);
  return {
    isbn: isbns.length === 1 ? (isbns[0] ?? null) : null,
    key: keys.length === 1 ? (keys[0] ?? null) : null,
    edition: null,
  };
}

/** The one value of a list, or null when it holds none or several (no order tells them apart). */
function onlyOf(values: string[]): string | null {
  return values.length === 1 ? (values[0] ?? null) : null;
}

/** A work's language: its chosen edition's, else the one language of all its editions; never a guess among several. */
function languageOf(doc: Json, edition: Json | null): string | null {
  const languages = strings(edition ? edition.language : doc.language);
  return languageCode(onlyOf(languages));
}

/**
 * Maps one search.json document. A document is a work, so edition-level ids (Goodreads, Amazon,
 * Internet Archive) are only kept when the work has a single edition and they cannot be mixed up;
 * the ISBN, language and cover are the chosen edition's (`chosenEdition`).
 */
export function openLibrarySearchDocToRecord(doc: Json, coversUrl: string): BookRecord | null {
  const { isbn, key, edition } = chosenEdition(doc);
  // The chosen edition's own title: a work is filed under its original ("Le Petit Prince"), and an
  // English edition's ISBN goes with "The Little Prince".
  const editionTitle = str(edition?.title);
  const title = editionTitle ?? str(doc.title);
  if (!title) return null;
  const workKey = olid(doc.key);
  const single = strings(doc.edition_key).length === 1;
  const found: Record<string, string | null> = {
    ol_work: workKey,
    ol_edition: key,
    goodreads: single ? (strings(doc.id_goodreads)[0] ?? null) : null,
    asin: single ? (strings(doc.id_amazon)[0] ?? null) : null,
    ia: single ? (strings(doc.ia)[0] ?? null) : null,
  };
  const coverId = num(edition?.cover_i) ?? num(doc.cover_i);
  const editionCount = num(doc.edition_count);
  const firstYear = num(doc.first_publish_year);
  return {
    ...emptyRecord(NAME, title),
    isbn13: isbn?.isbn13 ?? null,
    isbn10: isbn?.isbn10 ?? null,
    subtitle: editionTitle ? str(edition?.subtitle) : str(doc.subtitle),
    authors: strings(doc.author_name),
    publishedDate: normaliseDate(String(num(doc.first_publish_year) ?? '')),
    publisher: onlyOf(strings(edition ? edition.publisher : doc.publisher)),
    coverUrl: coverId !== null && coverId > 0 ? `${coversUrl}/b/id/${coverId}-L.jpg` : null,
    language: languageOf(doc, edition),
    pages: positiveInt(doc.number_of_pages_median),
    identifiers: Object.fromEntries(
      Object.entries(found).filter((entry): entry is [string, string] => entry[1] !== null),
    ),
    workKey,
    // Zero is kept: a work the index counts no edition of is a stub, not a book of unknown reach.
    ...(editionCount !== null && editionCount >= 0 ? { editionCount: Math.round(editionCount) } : {}),
    // The work's first publication (the edition's own date is not in a search document).
    ...(firstYear !== null && Number.isInteger(firstYear) && firstYear > 0
      ? { firstPublishYear: firstYear }
      : {}),
  };
}

/** Open Library: the Books API (jscmd=data) for ISBNs, search.json for text. */
export class OpenLibraryProvider implements MetadataProvider {
  readonly name = NAME;

  constructor(private readonly options: OpenLibraryOptions) {}

  async lookupIsbn(isbn: Isbn, signal: AbortSignal): Promise<BookRecord | null> {
    const entry = await this.booksApiEntry(`ISBN:${isbn.isbn13}`, signal);
    return entry ? openLibraryDataToRecord(entry, isbn) : null;
  }

  /** One edition by its Open Library id (`OL7353617M`), for retailer-URL resolve. */
  async lookupEdition(olid: string, signal: AbortSignal): Promise<BookRecord | null> {
    if (!/^OL\d+M$/.test(olid)) return null;
    return this.lookupBibkey(`OLID:${olid}`, signal);
  }

  /**
   * One edition by its OCLC (WorldCat) number: the Books API's `OCLC:` bibkey, else a search for
   * `oclc:<n>` (the search index knows numbers the Books API's table lacks).
   */
  async lookupOclc(oclc: string, signal: AbortSignal): Promise<BookRecord | null> {
    if (!/^\d{1,15}$/.test(oclc)) return null;
    const record = await this.lookupBibkey(`OCLC:${oclc}`, signal);
    return record ?? this.lookupBySearchField('oclc', oclc, signal);
  }

  /**
   * The edition a store id names, by a search on the field that holds it (`id_goodreads`,
   * `id_librarything`, `oclc`). A search answers works: the matching edition is taken from the
   * answer's `editions` (the edition the query matched), or the work's only edition; its full
   * record then comes from the Books API. A work of several editions with no matching edition
   * named keeps no ISBN, so no other edition is passed off as the one the id names.
   */
  async lookupBySearchField(field: IdField, value: string, signal: AbortSignal): Promise<BookRecord | null> {
    if (!/^\d{1,15}$/.test(value)) return null;
    const url = endpoint(this.options.baseUrl, '/search.json', {
      q: `${field}:${value}`,
      fields: `${SEARCH_FIELDS},${EDITION_FIELDS}`,
      limit: 2,
    });
    const body = obj(await this.options.client.getJson(NAME, url, { signal }));
    const docs = arr(body?.docs)
      .map((doc) => obj(doc))
      .filter((doc): doc is Json => doc !== null);
    // Two works claiming one id is a data error: no guessing between them.
    const [doc] = docs;
    if (!doc || docs.length > 1) return null;
    const matched = olid(obj(arr(obj(doc.editions)?.docs)[0])?.key);
    const editions = strings(doc.edition_key);
    const edition = matched ?? (editions.length === 1 ? editions[0] : undefined);
    const full = edition ? await this.lookupEdition(edition, signal) : null;
    if (full) return { ...full, workKey: full.workKey ?? olid(doc.key) };
    const record = openLibrarySearchDocToRecord(doc, this.options.coversUrl);
    if (!record || edition) return record;
    return { ...record, isbn13: null, isbn10: null };
  }

  private async lookupBibkey(bibkey: string, signal: AbortSignal): Promise<BookRecord | null> {
    const entry = await this.booksApiEntry(bibkey, signal);
    return entry ? openLibraryDataToRecord(entry) : null;
  }

  /** The Books API's `jscmd=data` entry for one bibkey (`ISBN:…`, `OCLC:…`), or null. */
  private async booksApiEntry(bibkey: string, signal: AbortSignal) {
    const url = endpoint(this.options.baseUrl, '/api/books', {
      bibkeys: bibkey,
      jscmd: 'data',
      format: 'json',
    });
    const body = obj(await this.options.client.getJson(NAME, url, { signal }));
    return obj(body?.[bibkey]);
  }

  async search(query: SearchQuery, signal: AbortSignal): Promise<BookRecord[]> {
    const language =
      query.language ?? scriptLanguage(`${query.text} ${query.title ?? ''}`) ?? DEFAULT_LANGUAGE;
    const params: Record<string, string | number> = {
      limit: query.limit,
      fields: `${SEARCH_FIELDS},${EDITION_FIELDS}`,
      // The index picks each work's edition in this language when it has one.
      lang: language,
    };
    if (query.text.trim()) params.q = query.text.trim();
    if (query.title) params.title = query.title;
    if (query.author) params.author = query.author;
    const url = endpoint(this.options.baseUrl, '/search.json', params);
    const body = obj(await this.options.client.getJson(NAME, url, { signal }));
    return arr(body?.docs)
      .map((doc) => obj(doc))
      .filter((doc): doc is Json => doc !== null)
      .map((doc) => openLibrarySearchDocToRecord(doc, this.options.coversUrl))
      .filter((record): record is BookRecord => record !== null);
  }

  /**
   * The cover Open Library holds for an ISBN, checked with a HEAD request (`default=false` makes a
   * missing cover a 404 rather than a blank image). For the cover fallback of book pages.
   */
  async coverForIsbn(isbn13: string, signal: AbortSignal): Promise<string | null> {
    const url = `${this.options.coversUrl}/b/isbn/${isbn13}-L.jpg?default=false`;
    return (await this.options.client.probeImage('openlibrary-covers', url, { signal })) ? url : null;
  }
}
