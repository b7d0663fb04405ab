import { splitAuthors } from './authors.js';
import { catalogEntry } from './entry.js';
import { bookFormat, cleanText, coverUrl, firstIsbn, isoDate, languageCode, positiveInt } from './fields.js';
import { accept, type ParseContext, type ParseResult, skip } from './types.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function identifiersOf(value: unknown): Record<string, string | null> {
  if (!isObject(value)) return {};
  const identifiers: Record<string, string | null> = {};
  for (const [scheme, id] of Object.entries(value)) {
    identifiers[scheme] = cleanText(Array.isArray(id) ? id[0] : id);
  }
  return identifiers;
}

/** One object in our own field names (the shape `booklink` exports and operators write by hand). */
export function parseJsonObject(row: Json, context: ParseContext): ParseResult {
  const isbn = firstIsbn([row.isbn13, row.isbn_13, row.isbn, row.isbn10, row.isbn_10]);
  if (!isbn) return skip('no_valid_isbn');
  const title = cleanText(row.title);
  if (!title) return skip('missing_title');
  const entry = catalogEntry(
    {
      source: cleanText(row.source) ?? 'jsonl',
      isbn,
      title,
      subtitle: cleanText(row.subtitle),
      authors: splitAuthors(row.authors ?? row.author),
      publishedDate: isoDate(row.published_date ?? row.publishedDate),
      publisher: cleanText(row.publisher),
      coverUrl: coverUrl(row.cover_url ?? row.coverUrl),
      language: languageCode(row.language),
      format: bookFormat(row.format),
      pages: positiveInt(row.pages),
      description: cleanText(row.description),
      identifiers: identifiersOf(row.identifiers),
      popularity: positiveInt(row.popularity),
    },
    context.now,
  );
  return entry ? accept(entry) : skip('no_valid_isbn');
}

export function parseJsonLine(line: string, context: ParseContext): ParseResult {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    return skip('invalid_json');
  }
  return isObject(row) ? parseJsonObject(row, context) : skip('invalid_json');
}
