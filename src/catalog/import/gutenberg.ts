import { invertName } from './authors.js';
import { headerKey } from './csv.js';
import { catalogEntry } from './entry.js';
import { cleanText, isoDate, languageCode } from './fields.js';
import { accept, type ParseContext, type ParseResult, skip } from './types.js';

const ROLE = /\s*\[[^\]]*\]/g;
const HAS_ROLE = /\[[^\]]*\]/;
// "Lewis, C. S. (Clive Staples)": the expansion in parentheses repeats the given names.
const EXPANSION = /\s*\([^)]*\)/g;
// Trailing life dates: ", 1775-1817", ", -1817", ", 1838?-1914", ", 751? BCE-651? BCE", ", active 1850".
const LIFE_DATES = /,\s*[^,]*\d[^,]*$/;

/** "Austen, Jane, 1775-1817" → "Jane Austen"; roles in brackets and life dates go. */
export function gutenbergName(raw: string): string | null {
  const name = raw.replace(ROLE, '').replace(EXPANSION, '').replace(LIFE_DATES, '').trim();
  return cleanText(invertName(name));
}

/** Authors first, then contributors with a role ([Illustrator], [Editor]), as the catalogue lists them. */
export function gutenbergAuthors(value: unknown): string[] {
  const people = (cleanText(value) ?? '').split(';').filter((part) => part.trim() !== '');
  const ordered = [...people.filter((p) => !HAS_ROLE.test(p)), ...people.filter((p) => HAS_ROLE.test(p))];
  const names = ordered.map(gutenbergName).filter((name): name is string => name !== null);
  return [...new Set(names)];
}

export interface GutenbergRow {
  id: string | undefined;
  type: string | undefined;
  issued: string | undefined;
  title: string | undefined;
  language: string | undefined;
  authors: string | undefined;
}

/** One row of `pg_catalog.csv` → an ebook entry keyed `gutenberg:<Text#>` (Gutenberg has no ISBNs). */
export function parseGutenbergRow(row: GutenbergRow, context: ParseContext): ParseResult {
  const id = cleanText(row.id);
  if (!id || !/^\d+$/.test(id)) return skip('malformed_row');
  if (cleanText(row.type)?.toLowerCase() !== 'text') return skip('not_a_text');
  // Titles carry their subtitle on a second line.
  const [first, ...rest] = (row.title ?? '').split(/\r?\n/);
  const title = cleanText(first);
  if (!title) return skip('missing_title');
  const entry = catalogEntry(
    {
      source: 'gutenberg',
      isbn: null,
      sourceId: id,
      title,
      subtitle: cleanText(rest.join(' ')),
      authors: gutenbergAuthors(row.authors),
      publishedDate: isoDate(row.issued),
      coverUrl: `https://www.gutenberg.org/cache/epub/${id}/pg${id}.cover.medium.jpg`,
      language: languageCode(row.language),
      format: 'ebook',
      identifiers: { gutenberg: id },
    },
    context.now,
  );
  return entry ? accept(entry) : skip('malformed_row');
}

/** Builds the row parser for the catalogue's header (`Text#, Type, Issued, Title, Language, Authors, …`). */
export function gutenbergRowParser(header: readonly string[], context: ParseContext) {
  const keys = header.map(headerKey);
  const at = (name: string) => keys.indexOf(name);
  const [id, type, issued, title, language, authors] = [
    'text',
    'type',
    'issued',
    'title',
    'language',
    'authors',
  ].map(at);
  return (record: readonly string[]): ParseResult =>
    parseGutenbergRow(
      {
        id: record[id ?? -1],
        type: record[type ?? -1],
        issued: record[issued ?? -1],
        title: record[title ?? -1],
        language: record[language ?? -1],
        authors: record[authors ?? -1],
      },
      context,
    );
}
