import { type Isbn, parseIsbn } from '../../domain/isbn.js';
import { VOLUME_WORDS, volumeNumber } from '../../domain/series.js';
import { type HttpClient, OutboundError } from '../http-client.js';
import { type BookRecord, emptyRecord, type MetadataProvider, type SearchQuery } from '../types.js';
import {
  arr,
  endpoint,
  type Json,
  languageCode,
  normaliseDate,
  obj,
  plainText,
  positiveInt,
  recordsIn,
  str,
  strings,
} from './normalise.js';

const NAME = 'googlebooks';
const IMAGE_SIZES = ['extraLarge', 'large', 'medium', 'small', 'thumbnail', 'smallThumbnail'];

export interface GoogleBooksOptions {
  baseUrl: string;
  client: HttpClient;
}

/**
 * The largest image Google lists, as https, at zoom=1 and without the page-curl decoration
 * (`edge=curl`), which looks broken when shown flat on a page.
 */
export function googleCover(imageLinks: unknown): string | null {
  const links = obj(imageLinks);
  const raw = IMAGE_SIZES.map((size) => str(links?.[size])).find((url) => url !== null);
  if (!raw) return null;
  try {
    const url = new URL(raw);
    url.protocol = 'https:';
    url.searchParams.delete('edge');
    if (url.searchParams.has('zoom')) url.searchParams.set('zoom', '1');
    return url.toString();
  } catch {
    return null;
  }
}

/** Every valid ISBN the volume lists, both forms, for the identifier index. */
function allIsbnsOf(info: Json): [string, string][] {
  const pairs: [string, string][] = [];
  for (const entry of arr(info.industryIdentifiers)) {
    const parsed = parseIsbn(str(obj(entry)?.identifier) ?? '');
    if (parsed) pairs.push(['isbn13', parsed.isbn13]);
    if (parsed?.isbn10) pairs.push(['isbn10', parsed.isbn10]);
  }
  return pairs;
}

function isbnsOf(info: Json): { isbn13: string | null; isbn10: string | null } {
  let isbn13: string | null = null;
  let isbn10: string | null = null;
  for (const entry of arr(info.industryIdentifiers)) {
    const id = obj(entry);
    const parsed = parseIsbn(str(id?.identifier) ?? '');
    if (!parsed) continue;
    isbn13 ??= parsed.isbn13;
    isbn10 ??= parsed.isbn10;
  }
  return { isbn13, isbn10 };
}

// "Vampire Academy, Book 2", "Die Tribute von Panem, Band 2", "Les Rois maudits, tome 3".
const TRAILING_VOLUME = new RegExp(
  `^(.{2,80}?),?\\s+(?:(?:${VOLUME_WORDS.join('|')})\\s+|(?:vol|bd|t)\\.\\s*|#\\s*)([a-z]+|\\d{1,3})$`,
  'i',
);

/**
 * The series note Google prints in some subtitles ("The Maze Runner, Book 1", "Book Two of the
 * Hunger Games Trilogy", "Vampire Academy #2") in the catalog's form "The Maze Runner, #1".
 */
export function seriesFromSubtitle(subtitle: string | null): string | null {
  if (!subtitle) return null;
  const trailing = TRAILING_VOLUME.exec(subtitle.trim());
  const leading =
    /^(?:book|volume)\s+([a-z]+|\d{1,3})\s+(?:of|in)\s+(?:the\s+)?(.{2,80}?)(?:\s+(?:series|trilogy|saga|quartet|cycle|chronicles))?$/i.exec(
      subtitle.trim(),
    );
  const [name, number] = trailing ? [trailing[1], trailing[2]] : leading ? [leading[2], leading[1]] : [];
  const volume = number ? volumeNumber(number) : null;
  if (!name || volume === null) return null;
  return `${name.replace(/\s+series$/i, '').trim()}, #${volume}`;
}

/**
 * Google's own series data (`volumeInfo.seriesInfo`, `kind: books#volume_series_info`): the first
 * `volumeSeries` entry's id and its `orderNumber` (or the `bookDisplayNumber` when that is a
 * plain number). Google names no series there, and most volumes, novels above all, carry none.
 */
export function googleSeriesInfo(value: unknown): { id: string; number: number } | null {
  const info = obj(value);
  const first = obj(arr(info?.volumeSeries)[0]);
  const id = str(first?.seriesId);
  if (!info || !id) return null;
  const order = first?.orderNumber;
  const display = str(info.bookDisplayNumber);
  const number =
    typeof order === 'number' && Number.isInteger(order) && order > 0 && order < 1000
      ? order
      : display && /^\d{1,3}$/.test(display)
        ? Number(display)
        : null;
  return number === null ? null : { id, number };
}

/** Maps one item of a `volumes` answer. */
export function googleVolumeToRecord(item: Json): BookRecord | null {
  const info = obj(item.volumeInfo);
  const title = str(info?.title);
  if (!info || !title) return null;
  const id = str(item.id);
  const series = seriesFromSubtitle(str(info.subtitle));
  const providerSeries = googleSeriesInfo(info.seriesInfo);
  return {
    ...emptyRecord(NAME, title),
    ...isbnsOf(info),
    subtitle: str(info.subtitle),
    authors: strings(info.authors),
    publishedDate: normaliseDate(info.publishedDate),
    publisher: str(info.publisher),
    coverUrl: googleCover(info.imageLinks),
    language: languageCode(info.language),
    pages: positiveInt(info.pageCount),
    description: plainText(info.description),
    identifiers: { ...(id ? { google_volume: id } : {}), ...(series ? { series } : {}) },
    allIdentifiers: allIsbnsOf(info),
    ...(providerSeries ? { providerSeries } : {}),
  };
}

const records = (body: unknown): BookRecord[] => recordsIn(body, 'items', googleVolumeToRecord);

/** `intitle:` / `inauthor:` when the query names them, the free text otherwise. */
export function googleQuery(query: SearchQuery): string {
  const parts: string[] = [];
  if (query.text.trim()) parts.push(query.text.trim());
  if (query.title) parts.push(`intitle:${query.title}`);
  if (query.author) parts.push(`inauthor:${query.author}`);
  return parts.join(' ');
}

/** Google Books volumes API. */
export class GoogleBooksProvider implements MetadataProvider {
  readonly name = NAME;

  constructor(private readonly options: GoogleBooksOptions) {}

  async lookupIsbn(isbn: Isbn, signal: AbortSignal): Promise<BookRecord | null> {
    const url = endpoint(this.options.baseUrl, '/books/v1/volumes', { q: `isbn:${isbn.isbn13}` });
    // Google's isbn: search sometimes answers neighbours too; only a volume carrying the ISBN counts.
    const match = records(await this.options.client.getJson(NAME, url, { signal })).find(
      (record) => record.isbn13 === isbn.isbn13,
    );
    return match ? { ...match, isbn13: isbn.isbn13, isbn10: isbn.isbn10 } : null;
  }

  /** One volume by its id (`pD6arNyKyi8C`), for retailer-URL resolve; null when Google has none. */
  async lookupVolume(id: string, signal: AbortSignal): Promise<BookRecord | null> {
    if (!/^[A-Za-z0-9_-]{4,40}$/.test(id)) return null;
    const url = endpoint(this.options.baseUrl, `/books/v1/volumes/${id}`, {});
    try {
      const item = obj(await this.options.client.getJson(NAME, url, { signal }));
      return item ? googleVolumeToRecord(item) : null;
    } catch (error) {
      // Google answers an unknown volume id with 404 (or 503 "volume not found" on some ids).
      if (error instanceof OutboundError && error.code === 'http_status' && error.status === 404) return null;
      throw error;
    }
  }

  async search(query: SearchQuery, signal: AbortSignal): Promise<BookRecord[]> {
    const q = googleQuery(query);
    if (!q) return [];
    const maxResults = Math.min(Math.max(query.limit, 1), 40);
    const url = endpoint(this.options.baseUrl, '/books/v1/volumes', { q, maxResults, printType: 'books' });
    return records(await this.options.client.getJson(NAME, url, { signal }));
  }
}
