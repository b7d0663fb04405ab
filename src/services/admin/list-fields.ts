import type { FieldErrors } from './commands.js';

/** Must stay the key Ingest.run computes: source+name+date identify one list, whoever made it. */
export const listKey = (source: string, name: string | null, date: string | null): string =>
  JSON.stringify([source, name ?? '', date ?? '']);

const DATE = /^\d{4}(-\d{2}(-\d{2})?)?$/;
export const dateError = (date: string): string | null =>
  date === '' || DATE.test(date) ? null : 'Use a date like 2025-01-31 (or 2025-01, or 2025).';

/** SPEC's "book add list" is_featured is a string: "" means false. */
export function parseFlag(value: string): boolean | null {
  const text = value.trim().toLowerCase();
  if (['', 'false', '0', 'off', 'no'].includes(text)) return false;
  return ['true', '1', 'on', 'yes'].includes(text) ? true : null;
}

/**
 * Form numbers (ranks, ids) stay text until here, so "12a" or 99999999999 gets a message beside its
 * field instead of the raw 422 that schema coercion and the storable-number guard would answer.
 */
export function wholeNumber(text: string, max = 1_000_000): number | null | 'invalid' {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = /^\d{1,16}$/.test(trimmed) ? Number(trimmed) : 0;
  return value >= 1 && value <= max ? value : 'invalid';
}
export const RANK_ERROR = 'Enter a whole number from 1.';

/**
 * The reorder form: `books` names the items it showed (comma-separated ids) and `rank_{id}` holds each
 * one's rank; an emptied rank means unranked. Items added since the page was loaded keep their rank.
 */
export function parseRanks(
  body: Readonly<Record<string, string>>,
): { ranks: Map<number, number | null> } | { errors: FieldErrors } {
  const ranks = new Map<number, number | null>();
  const errors: FieldErrors = {};
  for (const id of (body.books ?? '').split(',').filter(Boolean)) {
    const bookId = wholeNumber(id, Number.MAX_SAFE_INTEGER);
    if (typeof bookId !== 'number') continue;
    const rank = wholeNumber(body[`rank_${id}`] ?? '');
    if (rank === 'invalid') errors[`rank_${id}`] = RANK_ERROR;
    else ranks.set(bookId, rank);
  }
  return Object.keys(errors).length > 0 ? { errors } : { ranks };
}

/** SPEC "book add list", from the book's page. */
export interface AddListInput {
  list_name: string;
  list_source: string;
  rank: string;
  list_date: string;
  is_featured: string;
}

/** The "New list" form of the Lists area: a list and its books (one slug, ISBN or address a line). */
export interface NewListInput {
  name: string;
  description: string;
  list_date: string;
  is_featured: boolean;
  books: string;
}

/** At most this many books in one new list from the form (each line may ask the catalogs). */
export const NEW_LIST_MAX_BOOKS = 100;

export interface ListEditInput {
  name: string;
  description: string;
  list_date: string;
  is_featured: boolean;
}
