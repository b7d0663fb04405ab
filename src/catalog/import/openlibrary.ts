import { namesFromByStatement } from './authors.js';
import { catalogEntry } from './entry.js';
import { bookFormat, cleanText, firstIsbn, isoDate, languageCode, positiveInt } from './fields.js';
import { accept, type ParseContext, type ParseResult, skip } from './types.js';

type Json = Record<string, unknown>;

// Open Library identifier schemes renamed to ours; schemes we have no name for keep theirs.
const SCHEMES: Readonly<Record<string, string>> = {
  amazon: 'asin',
  google: 'google_volume',
  project_gutenberg: 'gutenberg',
};

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** "/books/OL1M" → "OL1M". */
const lastSegment = (key: unknown) => cleanText(key)?.split('/').pop() ?? null;

function keyOf(value: unknown): string | null {
  return isObject(value) ? lastSegment(value.key) : null;
}

function textValue(value: unknown): string | null {
  return isObject(value) ? cleanText(value.value) : cleanText(value);
}

function identifiersOf(edition: Json): Record<string, string | null> {
  const identifiers: Record<string, string | null> = {};
  if (isObject(edition.identifiers)) {
    for (const [scheme, values] of Object.entries(edition.identifiers)) {
      identifiers[SCHEMES[scheme] ?? scheme] = cleanText(list(values)[0]);
    }
  }
  const authorKeys = list(edition.authors).map(keyOf).filter(Boolean);
  identifiers.ol_edition = lastSegment(edition.key);
  identifiers.ol_work = keyOf(list(edition.works)[0]);
  identifiers.ol_authors = authorKeys.length > 0 ? authorKeys.join(',') : null;
  identifiers.ia = cleanText(edition.ocaid);
  return identifiers;
}

function coverOf(edition: Json, context: ParseContext): string | null {
  // Open Library marks a removed cover with -1; only positive ids have an image.
  const id = list(edition.covers).find((cover) => typeof cover === 'number' && cover > 0);
  return id ? `${context.coversBaseUrl}/b/id/${id}-L.jpg` : null;
}

/** An edition record (the JSON column of the dump) → catalog entry. */
export function parseOpenLibraryEdition(edition: Json, context: ParseContext): ParseResult {
  const isbn = firstIsbn([...list(edition.isbn_13), ...list(edition.isbn_10)]);
  if (!isbn) return skip('no_valid_isbn');
  const title = cleanText(edition.title);
  if (!title) return skip('missing_title');
  const entry = catalogEntry(
    {
      source: 'openlibrary',
      isbn,
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
      identifiers: identifiersOf(edition),
    },
    context.now,
  );
  return entry ? accept(entry) : skip('no_valid_isbn');
}

/** One dump line: `type \t key \t revision \t last_modified \t json`. */
export function parseOpenLibraryLine(line: string, context: ParseContext): ParseResult {
  const columns = line.split('\t');
  if (columns.length !== 5) return skip('malformed_row');
  if (columns[0] !== '/type/edition') return skip('not_an_edition');
  let record: unknown;
  try {
    record = JSON.parse(columns[4] ?? '');
  } catch {
    return skip('invalid_json');
  }
  return isObject(record) ? parseOpenLibraryEdition(record, context) : skip('invalid_json');
}
