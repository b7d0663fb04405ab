import { foldText } from './text.js';

export const MAX_SLUG_LENGTH = 80;

function slugPart(text: string): string {
  return foldText(text).replace(/\s+/g, '-');
}

/** Cuts at a word boundary so a slug never ends in half a word. */
function truncate(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max);
  const lastDash = cut.lastIndexOf('-');
  return (lastDash > max / 2 ? cut.slice(0, lastDash) : cut).replace(/-+$/, '');
}

/**
 * A readable slug from the title and the first author: "the-hobbit-j-r-r-tolkien".
 * Non-Latin titles keep their letters (slugs are UTF-8 path segments); an empty result
 * falls back to "book" so the caller's uniqueness suffix still gives a valid slug.
 */
export function baseSlug(title: string, authors: readonly string[]): string {
  const titlePart = slugPart(title.replace(/\s*\([^)]*#\s*[\d.]+[^)]*\)\s*$/, ''));
  const authorPart = authors[0] ? slugPart(authors[0]) : '';
  const full = [titlePart, authorPart].filter(Boolean).join('-');
  return truncate(full, MAX_SLUG_LENGTH) || 'book';
}

/** The n-th alternative when the base is taken: "-2", "-3"… or the ISBN, kept within the limit. */
export function slugCandidate(base: string, attempt: number, isbn13: string | null): string {
  if (attempt === 0) return base;
  const suffix = attempt === 1 && isbn13 ? isbn13 : String(attempt);
  return `${truncate(base, MAX_SLUG_LENGTH - suffix.length - 1)}-${suffix}`;
}

export function isValidSlugParam(slug: string): boolean {
  return slug.length > 0 && slug.length <= MAX_SLUG_LENGTH;
}
