import { parseHttpUrl } from '../urls.js';
import type { BookIdentifiers, LinkBook, LinkKind } from './types.js';

// URL templates and the values filled into them: placeholders, alternatives, encoding.

export const IDENTIFIER_PLACEHOLDERS = [
  'asin',
  'gutenberg',
  'ia',
  'standard_ebooks',
  'librivox',
  'ol_edition',
  'ol_work',
  'google_volume',
  'apple_books',
  'apple_audiobook',
  'goodreads',
] as const;
const TEXT_PLACEHOLDERS = ['isbn13', 'isbn10', 'title', 'author', 'title_author'] as const;
export const PLACEHOLDERS: readonly string[] = [
  ...TEXT_PLACEHOLDERS,
  ...IDENTIFIER_PLACEHOLDERS,
  'affiliate',
];

/** Identifiers whose values are paths of several segments (`jane-austen/pride-and-prejudice`). */
const PATH_IDENTIFIERS = new Set(['standard_ebooks']);
export const PLACEHOLDER = /\{([a-z0-9_]+)\}/g;
const ALTERNATIVE_SEPARATOR = /\s+\|\|\s+/;
export const PLACEHOLDER_IN_HOST = /^[a-z]+:\/\/[^/]*\{/i;

export function templateAlternatives(template: string): string[] {
  return template
    .split(ALTERNATIVE_SEPARATOR)
    .map((alternative) => alternative.trim())
    .filter(Boolean);
}

export function placeholdersOf(alternative: string): string[] {
  return [...alternative.matchAll(PLACEHOLDER)].map((match) => match[1] ?? '');
}

// Placeholder values and encoding

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The title as a reader would search for it: series notes such as "(The Hunger Games, #1)" dropped. */
export function searchTitle(title: string): string {
  return collapse(title.replace(/\s*\([^)]*#\s*[\d.]+[^)]*\)\s*$/, ''));
}

/** "Austen, Jane" → "Jane Austen"; other spellings unchanged. Stores search better in reading order. */
export function searchAuthor(author: string): string {
  const parts = author.split(',').map(collapse);
  const [last, first] = parts;
  if (parts.length === 2 && last && first && !/^(jr|sr|ii|iii|iv|phd)\.?$/i.test(first))
    return `${first} ${last}`;
  return collapse(author);
}

export function placeholderValues(
  book: LinkBook,
  identifiers: BookIdentifiers,
  affiliateTag: string | null,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const scheme of IDENTIFIER_PLACEHOLDERS) {
    const value = identifiers[scheme]?.trim();
    if (value) values[scheme] = value;
  }
  const isbn13 = book.isbn13 ?? identifiers.isbn13 ?? '';
  const isbn10 = book.isbn10 ?? identifiers.isbn10 ?? '';
  if (isbn13) values.isbn13 = isbn13;
  if (isbn10) values.isbn10 = isbn10;
  const title = searchTitle(book.title);
  const author = book.authors[0] ? searchAuthor(book.authors[0]) : '';
  if (title) values.title = title;
  if (author) values.author = author;
  // A title alone still finds most books; an author alone never does.
  if (title) values.title_author = collapse(`${title} ${author}`);
  if (affiliateTag) values.affiliate = affiliateTag;
  return values;
}

function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

/** Encodes a value for a path; null when it would climb out of the path (`..`). */
function encodePathValue(name: string, value: string): string | null {
  const segments = PATH_IDENTIFIERS.has(name) ? value.split('/') : [value];
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
  return segments.map(encodeURIComponent).join('/');
}

export function parseWebUrl(text: string): URL | null {
  const url = parseHttpUrl(text);
  return url && !url.username && !url.password ? url : null;
}

/** Fills one alternative, or null when a placeholder has no value or the result is not a web URL. */
export function fillAlternative(
  alternative: string,
  values: Readonly<Record<string, string>>,
): string | null {
  const queryStart = alternative.search(/[?#]/);
  let complete = true;
  const filled = alternative.replace(PLACEHOLDER, (_match, name: string, offset: number) => {
    const value = values[name];
    const inQuery = queryStart !== -1 && offset > queryStart;
    const encoded = value ? (inQuery ? encodeQueryValue(value) : encodePathValue(name, value)) : null;
    if (encoded === null) complete = false;
    return encoded ?? '';
  });
  return complete ? (parseWebUrl(filled)?.toString() ?? null) : null;
}

export function fillTemplate(template: string, values: Readonly<Record<string, string>>): string | null {
  return fillTemplateLink(template, values)?.url ?? null;
}

// A search form asks in its path (`/search`, `/suche`, `/s/`…) or in a query parameter whose value
// the template fills (`?q={isbn13}`, `?keywords={title_author}`); a product page names the book in
// its path (`/dp/{isbn10}`, `/book/{isbn13}`) or by an id parameter (`/w/?ean={isbn13}`).
const SEARCH_PATH =
  /\/(?:search[^/?#]*|searchresults|suche|recherche|rechercher|busqueda|buscar|zoeken|cerca|src|s|sch|q|browse|booksearch|search-books|search-nwx)(?=[/?#.]|$)/i;
const SEARCH_PARAM =
  /[?&](?:q|k|s|query|keywords?|keyword|search|searchtext|search_query|sq|term|texto|words|sitem|g|xy|kn|mots_recherche|_nkw|b\.search)=\{/i;

/** Whether one alternative of a template opens the book's page or runs a search for it. */
export function alternativeKind(alternative: string): LinkKind {
  const path = alternative.replace(/^[a-z]+:\/\/[^/]*/i, '');
  return SEARCH_PATH.test(path.split(/[?#]/)[0] ?? '') || SEARCH_PARAM.test(path) ? 'search' : 'product';
}

/** The template filled, with what the alternative that produced the URL opens; null when none fills. */
export function fillTemplateLink(
  template: string,
  values: Readonly<Record<string, string>>,
): { url: string; kind: LinkKind } | null {
  for (const alternative of templateAlternatives(template)) {
    const url = fillAlternative(alternative, values);
    if (url) return { url, kind: alternativeKind(alternative) };
  }
  return null;
}
