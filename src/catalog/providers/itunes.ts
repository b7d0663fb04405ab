import type { Isbn } from '../../domain/isbn.js';
import type { HttpClient } from '../http-client.js';
import {
  type BookFormat,
  type BookRecord,
  emptyRecord,
  type MetadataProvider,
  type SearchQuery,
} from '../types.js';
import { arr, endpoint, type Json, normaliseDate, num, plainText, recordsIn, str } from './normalise.js';

const NAME = 'itunes';

export interface ItunesOptions {
  baseUrl: string;
  client: HttpClient;
  /** Store country for search (two letters); the lookup answers from the US store otherwise. */
  country?: string;
}

/** artworkUrl100 ends in "100x100bb.jpg"; the same path serves any size up to the original. */
export function upscaleArtwork(url: string | null): string | null {
  return url ? url.replace(/\/\d+x\d+(bb)?\.(jpg|png|webp)$/i, '/600x600bb.$2') : null;
}

function formatOf(result: Json): BookFormat | null {
  if (result.wrapperType === 'audiobook' || result.kind === 'audiobook') return 'audiobook';
  if (result.kind === 'ebook') return 'ebook';
  return null;
}

/** A name's suffix, not a second person: "Martin Luther King, Jr.", "Jane Smith, PhD". */
const NAME_SUFFIX = /^(?:jr|sr|[ivx]{1,4}|phd|md|esq|obe|mbe|cbe|kbe|dbe)\.?$/i;

/**
 * The authors of one `artistName`: the store joins several as "Terry Pratchett & Neil Gaiman" or
 * "A, B & C" and lists an `artistIds` entry for each. One id is one name, commas and all.
 */
function authorsOf(result: Json): string[] {
  const name = str(result.artistName);
  if (!name) return [];
  const ids = arr(result.artistIds).length;
  if (ids === 1) return [name];
  const parts = name.split(/\s+&\s+|,\s+/).filter(Boolean);
  const names: string[] = [];
  for (const part of parts) {
    const last = names.length - 1;
    if (last >= 0 && NAME_SUFFIX.test(part)) names[last] = `${names[last]}, ${part}`;
    else names.push(part);
  }
  return names;
}

/** Apple's edition note at the end of an audiobook's name: "Dune (Unabridged)" is the book Dune. */
const EDITION_NOTE = /\s*[([](?:un)?abridged(?:\s+edition)?[)\]]\s*$/i;

/** Maps one result of the iTunes Search/Lookup API (an ebook track or an audiobook collection). */
export function itunesResultToRecord(result: Json): BookRecord | null {
  const format = formatOf(result);
  const name = str(result.trackName) ?? str(result.collectionName);
  const title = name && format === 'audiobook' ? name.replace(EDITION_NOTE, '') || name : name;
  if (!format || !title) return null;
  const id = num(result.trackId) ?? num(result.collectionId);
  // An audiobook's store id names the audiobook, never the ebook: Apple Books links them apart.
  const scheme = format === 'audiobook' ? 'apple_audiobook' : 'apple_books';
  return {
    ...emptyRecord(NAME, title),
    authors: authorsOf(result),
    publishedDate: normaliseDate(result.releaseDate),
    coverUrl: upscaleArtwork(str(result.artworkUrl100) ?? str(result.artworkUrl60)),
    format,
    description: plainText(result.description),
    identifiers: id !== null ? { [scheme]: String(id) } : {},
  };
}

const records = (body: unknown): BookRecord[] => recordsIn(body, 'results', itunesResultToRecord);

/** Apple's media store (iTunes Search API): ebooks and audiobooks. */
export class ItunesProvider implements MetadataProvider {
  readonly name = NAME;

  constructor(private readonly options: ItunesOptions) {}

  async lookupIsbn(isbn: Isbn, signal: AbortSignal): Promise<BookRecord | null> {
    const url = endpoint(this.options.baseUrl, '/lookup', { isbn: isbn.isbn13 });
    const [first] = records(await this.options.client.getJson(NAME, url, { signal }));
    // The lookup answers the book that carries the ISBN but does not repeat the ISBN itself.
    return first ? { ...first, isbn13: isbn.isbn13, isbn10: isbn.isbn10 } : null;
  }

  /**
   * One ebook or audiobook by its store id (Apple Books `…/book/…/id123`, `…/audiobook/…/id123`), for
   * retailer-URL resolve: the lookup answers either by the id alone. `storefront`: the country the
   * URL named (a storefront answers only what it sells: a British audiobook, not in the US store).
   */
  async lookupId(
    id: string,
    signal: AbortSignal,
    storefront: string | null = null,
  ): Promise<BookRecord | null> {
    if (!/^\d{1,15}$/.test(id)) return null;
    const params: Record<string, string> = { id };
    const country =
      storefront && /^[a-z]{2}$/i.test(storefront) ? storefront.toLowerCase() : this.options.country;
    if (country) params.country = country;
    const url = endpoint(this.options.baseUrl, '/lookup', params);
    const [first] = records(await this.options.client.getJson(NAME, url, { signal }));
    return first ?? null;
  }

  /** Ebooks and audiobooks are separate media in the store: ask both at once. */
  async search(query: SearchQuery, signal: AbortSignal): Promise<BookRecord[]> {
    const term = [query.text, query.title, query.author].filter((part) => part?.trim()).join(' ');
    if (!term.trim()) return [];
    const limit = Math.min(Math.max(query.limit, 1), 200);
    const answers = await Promise.all(
      (['ebook', 'audiobook'] as const).map((media) => {
        const params: Record<string, string | number> = { term, media, entity: media, limit };
        if (this.options.country) params.country = this.options.country;
        const url = endpoint(this.options.baseUrl, '/search', params);
        return this.options.client.getJson(NAME, url, { signal });
      }),
    );
    return answers.flatMap(records);
  }
}
