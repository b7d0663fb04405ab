import type { Isbn } from '../../domain/isbn.js';
import { namesFromByStatement } from './authors.js';
import { catalogEntry } from './entry.js';
import {
  bookFormat,
  cleanText,
  isbnFrom,
  isoDate,
  languageCode,
  lastSegment,
  positiveInt,
} from './fields.js';
import { accept, type EntryLinks, type ParseContext, type ParseResult, skip } from './types.js';

type Json = Record<string, unknown>;
type Pair = readonly [scheme: string, value: string];

// Open Library identifier schemes renamed to ours; schemes we have no name for keep theirs.
const SCHEMES: Readonly<Record<string, string>> = {
  amazon: 'asin',
  google: 'google_volume',
  project_gutenberg: 'gutenberg',
};

/** Identifier lists kept at the top level of an edition record (both spellings occur in the dumps). */
const TOP_LEVEL_SCHEMES = [
  ['oclc_numbers', 'oclc'],
  ['oclc_number', 'oclc'],
  ['lccn', 'lccn'],
] as const;

/** The fields of an edition record this parser reads. */
const EDITION_FIELDS = [
  'key',
  'title',
  'subtitle',
  'isbn_13',
  'isbn_10',
  'identifiers',
  'oclc_numbers',
  'oclc_number',
  'lccn',
  'authors',
  'works',
  'ocaid',
  'covers',
  'physical_format',
  'by_statement',
  'publish_date',
  'publishers',
  'languages',
  'number_of_pages',
  'description',
] as const;
const WANTED: ReadonlySet<string> = new Set(EDITION_FIELDS);

type Edition = Record<(typeof EDITION_FIELDS)[number], unknown>;
const NO_FIELDS = Object.fromEntries(EDITION_FIELDS.map((name) => [name, undefined])) as Edition;

/**
 * The fields read, copied into an object of one shape. JSON.parse gives records with their keys in
 * the order each was written, so they have as many shapes as orders (532 in the first 1,000 lines of a
 * real editions dump), and reading a field by name from so many shapes missed V8's inline caches
 * every time: 20 fields read by name took 5-8 µs a record (200,000 synthetic records), against
 * 1-2 µs for this copy and the reads from it. A `for…in` loop reads each value by its known position.
 */
function editionFields(record: Json): Edition {
  const edition: Edition = { ...NO_FIELDS };
  for (const name in record) {
    if (WANTED.has(name)) edition[name as keyof Edition] = record[name];
  }
  return edition;
}

// Physical formats of records that are not books: microfilm copies, maps, films, music, software.
const NOT_A_BOOK =
  /micro(?:form|film|fiche)|\bmaps?\b|video|dvd|\bfilm\b|vinyl|\blp\b|sheet music|\bgame\b|cd-?rom|diskette|wall chart/i;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function keyOf(value: unknown): string | null {
  return isObject(value) ? lastSegment(value.key) : null;
}

function textValue(value: unknown): string | null {
  return isObject(value) ? cleanText(value.value) : cleanText(value);
}

/** Every identifier value of the record (the JSON column keeps the first of each scheme). */
function allIdentifiers(edition: Edition, isbns: readonly (Isbn | null)[]): Pair[] {
  const pairs: Pair[] = [];
  const add = (scheme: string, values: unknown) => {
    for (const value of list(values)) {
      const text = cleanText(value);
      if (text) pairs.push([scheme, text]);
    }
  };
  if (isObject(edition.identifiers)) {
    for (const [scheme, values] of Object.entries(edition.identifiers))
      add(SCHEMES[scheme] ?? scheme, values);
  }
  for (const [field, scheme] of TOP_LEVEL_SCHEMES) add(scheme, edition[field]);
  for (const isbn of isbns) {
    if (isbn) {
      pairs.push(['isbn13', isbn.isbn13]);
      if (isbn.isbn10) pairs.push(['isbn10', isbn.isbn10]);
    }
  }
  return pairs;
}

function identifiersOf(edition: Edition, pairs: readonly Pair[]): Record<string, string | null> {
  const identifiers: Record<string, string | null> = {};
  for (const [scheme, value] of pairs) {
    if (scheme !== 'isbn13' && scheme !== 'isbn10') identifiers[scheme] ??= value;
  }
  const authorKeys = list(edition.authors).map(keyOf).filter(Boolean);
  identifiers.ol_edition = lastSegment(edition.key);
  identifiers.ol_work = keyOf(list(edition.works)[0]);
  identifiers.ol_authors = authorKeys.length > 0 ? authorKeys.join(',') : null;
  identifiers.ia = cleanText(edition.ocaid);
  return identifiers;
}

function coverOf(edition: Edition, context: ParseContext): string | null {
  // Open Library marks a removed cover with -1; only positive ids have an image.
  const id = list(edition.covers).find((cover) => typeof cover === 'number' && cover > 0);
  return id ? `${context.coversBaseUrl}/b/id/${id}-L.jpg` : null;
}

/** An edition record (the JSON column of the dump) → catalog entry. */
export function parseOpenLibraryEdition(record: Json, context: ParseContext): ParseResult {
  const edition = editionFields(record);
  // Each ISBN is parsed once: the first valid one keys the entry, all of them go to the index.
  const isbns = [...list(edition.isbn_13), ...list(edition.isbn_10)].map(isbnFrom);
  const isbn = isbns.find((parsed) => parsed !== null) ?? null;
  const olid = lastSegment(edition.key);
  if (!isbn && !(context.keepWithoutIsbn && olid)) return skip('no_valid_isbn');
  const title = cleanText(edition.title);
  if (!title) return skip('missing_title');
  if (context.keepWithoutIsbn && NOT_A_BOOK.test(cleanText(edition.physical_format) ?? '')) {
    return skip('not_a_book');
  }
  const pairs = allIdentifiers(edition, isbns);
  const identifiers = identifiersOf(edition, pairs);
  const workKey = identifiers.ol_work ?? null;
  if (olid) pairs.push(['ol_edition', olid]);
  if (workKey) pairs.push(['ol_work', workKey]);
  if (identifiers.ia) pairs.push(['ia', identifiers.ia]);
  const entry = catalogEntry(
    {
      source: 'openlibrary',
      isbn,
      sourceId: olid,
      title,
      subtitle: cleanText(edition.subtitle),
      // Author names live in separate author records; the dump only links them by key.
      authors: namesFromByStatement(edition.by_statement),
      publishedDate: isoDate(edition.publish_date),
      publisher: cleanText(list(edition.publishers)[0]),
      coverUrl: coverOf(edition, context),
      language: languageCode(keyOf(list(edition.languages)[0])),
      format: bookFormat(edition.physical_format),
      pages: positiveInt(edition.number_of_pages),
      description: textValue(edition.description),
      identifiers,
    },
    context.now,
  );
  if (!entry) return skip('no_valid_isbn');
  entry.work_key = workKey;
  const links: EntryLinks = {
    identifiers: pairs,
    authorKeys: list(edition.authors)
      .map((author) => keyOf(author) ?? (isObject(author) ? keyOf(author.author) : null))
      .filter((key): key is string => !!key),
  };
  return accept(entry, links);
}

/** One dump line: `type \t key \t revision \t last_modified \t json`. */
export function parseOpenLibraryLine(line: string, context: ParseContext): ParseResult {
  const columns = line.split('\t');
  if (columns.length !== 5) return skip('malformed_row');
  const type = columns[0];
  if (type !== '/type/edition') {
    // A dump that carries every type says an edition is gone with a delete or redirect record.
    const key = columns[1] ?? '';
    if ((type === '/type/delete' || type === '/type/redirect') && key.startsWith('/books/')) {
      return { ok: false, reason: type === '/type/delete' ? 'deleted' : 'redirected', removes: key.slice(7) };
    }
    return skip('not_an_edition');
  }
  let record: unknown;
  try {
    record = JSON.parse(columns[4] ?? '');
  } catch {
    return skip('invalid_json');
  }
  if (!isObject(record)) return skip('invalid_json');
  const result = parseOpenLibraryEdition(record, context);
  if (result.ok) result.entry.source_modified = cleanText(columns[3]);
  return result;
}
