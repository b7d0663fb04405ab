import { type Isbn, parseIsbn } from '../../domain/isbn.js';
import type { HttpClient } from '../http-client.js';
import { type BookRecord, emptyRecord, type MetadataProvider, type SearchQuery } from '../types.js';
import {
  arr,
  endpoint,
  formatFromText,
  type Json,
  languageCode,
  normaliseDate,
  num,
  obj,
  plainText,
  positiveInt,
  str,
  strings,
} from './normalise.js';

const NAME = 'openlibrary';
const SEARCH_FIELDS =
  'key,title,subtitle,author_name,first_publish_year,isbn,cover_i,edition_key,ia,publisher,language,' +
  'number_of_pages_median,id_goodreads,id_amazon,edition_count';

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

function descriptionOf(data: Json): string | null {
  return plainText(data.description) ?? plainText(obj(data.description)?.value);
}

/** Maps one entry of the Books API `jscmd=data` answer. */
export function openLibraryDataToRecord(data: Json, isbn?: Isbn): BookRecord | null {
  const title = str(data.title);
  if (!title) return null;
  const ids = obj(data.identifiers);
  const identifiers = identifiersOf(data);
  return {
    ...emptyRecord(NAME, title),
    isbn13: isbn?.isbn13 ?? firstOf(ids, 'isbn_13'),
    isbn10: isbn?.isbn10 ?? firstOf(ids, 'isbn_10'),
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

/** The first valid ISBN in a search document's list (which holds every edition's ISBNs). */
function firstIsbn(values: string[]): Isbn | null {
  const ordered = [...values.filter((v) => v.length === 13), ...values.filter((v) => v.length !== 13)];
  for (const value of ordered) {
    const isbn = parseIsbn(value);
    if (isbn) return isbn;
  }
  return null;
}

/**
 * Maps one search.json document. A document is a work, so edition-level ids (Goodreads, Amazon,
 * Internet Archive) are only kept when the work has a single edition and they cannot be mixed up.
 */
export function openLibrarySearchDocToRecord(doc: Json, coversUrl: string): BookRecord | null {
  const title = str(doc.title);
  if (!title) return null;
  const isbn = firstIsbn(strings(doc.isbn));
  const workKey = olid(doc.key);
  const single = strings(doc.edition_key).length === 1;
  const found: Record<string, string | null> = {
    ol_work: workKey,
    ol_edition: single ? (strings(doc.edition_key)[0] ?? null) : null,
    goodreads: single ? (strings(doc.id_goodreads)[0] ?? null) : null,
    asin: single ? (strings(doc.id_amazon)[0] ?? null) : null,
    ia: single ? (strings(doc.ia)[0] ?? null) : null,
  };
  const coverId = num(doc.cover_i);
  return {
    ...emptyRecord(NAME, title),
    isbn13: isbn?.isbn13 ?? null,
    isbn10: isbn?.isbn10 ?? null,
    subtitle: str(doc.subtitle),
    authors: strings(doc.author_name),
    publishedDate: normaliseDate(String(num(doc.first_publish_year) ?? '')),
    publisher: strings(doc.publisher)[0] ?? null,
    coverUrl: coverId !== null && coverId > 0 ? `${coversUrl}/b/id/${coverId}-L.jpg` : null,
    language: languageCode(strings(doc.language)[0]),
    pages: positiveInt(doc.number_of_pages_median),
    identifiers: Object.fromEntries(
      Object.entries(found).filter((entry): entry is [string, string] => entry[1] !== null),
    ),
    workKey,
    ...(positiveInt(doc.edition_count) ? { editionCount: positiveInt(doc.edition_count) ?? 1 } : {}),
  };
}

/** Open Library: the Books API (jscmd=data) for ISBNs, search.json for text. */
export class OpenLibraryProvider implements MetadataProvider {
  readonly name = NAME;

  constructor(private readonly options: OpenLibraryOptions) {}

  async lookupIsbn(isbn: Isbn, signal: AbortSignal): Promise<BookRecord | null> {
    const bibkey = `ISBN:${isbn.isbn13}`;
    const url = endpoint(this.options.baseUrl, '/api/books', {
      bibkeys: bibkey,
      jscmd: 'data',
      format: 'json',
    });
    const body = obj(await this.options.client.getJson(NAME, url, { signal }));
    const entry = obj(body?.[bibkey]);
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
      fields: `${SEARCH_FIELDS},editions,editions.key`,
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
    const url = endpoint(this.options.baseUrl, '/api/books', {
      bibkeys: bibkey,
      jscmd: 'data',
      format: 'json',
    });
    const body = obj(await this.options.client.getJson(NAME, url, { signal }));
    const entry = obj(body?.[bibkey]);
    return entry ? openLibraryDataToRecord(entry) : null;
  }

  async search(query: SearchQuery, signal: AbortSignal): Promise<BookRecord[]> {
    const params: Record<string, string | number> = { limit: query.limit, fields: SEARCH_FIELDS };
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
