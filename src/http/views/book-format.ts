import type { BookView } from './models.js';

/** Display helpers shared by the book page, its meta tags and JSON-LD. Pure string work. */

export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  if (names.length === 2) return `${names[0]} and ${names[1]}`;
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** "Title: Subtitle", as a reader would cite it. */
export function fullTitle(book: BookView): string {
  return book.subtitle ? `${book.title}: ${book.subtitle}` : book.title;
}

const MONTHS = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const DAYS = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

/** Providers give YYYY, YYYY-MM or YYYY-MM-DD; show only the precision we have. */
export function displayDate(date: string): string {
  const match = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(date);
  if (!match) return date;
  const [, year, month, day] = match;
  if (!month) return year ?? date;
  const when = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day ?? 1)));
  if (Number.isNaN(when.getTime())) return date;
  return (day ? DAYS : MONTHS).format(when);
}

export function yearOf(date: string | null): string | null {
  return date ? (/^\d{4}/.exec(date)?.[0] ?? null) : null;
}

const LANGUAGES = new Intl.DisplayNames(['en'], { type: 'language' });

/** "en" → "English"; a name that is already a name passes through. */
export function displayLanguage(language: string): string {
  if (!/^[a-z]{2,3}(?:-[A-Za-z]{2,4})?$/.test(language)) return language;
  try {
    return LANGUAGES.of(language) ?? language;
  } catch {
    return language;
  }
}

export function displayFormat(format: string): string {
  return format.charAt(0).toUpperCase() + format.slice(1);
}

/** schema.org BookFormatType for the free-form format strings providers use; null when unsure. */
export function schemaBookFormat(format: string | null): string | null {
  if (!format) return null;
  const f = format.toLowerCase();
  if (/audio/.test(f)) return 'https://schema.org/AudiobookFormat';
  if (/e-?book|kindle|epub|digital/.test(f)) return 'https://schema.org/EBook';
  if (/graphic/.test(f)) return 'https://schema.org/GraphicNovel';
  if (/hard/.test(f)) return 'https://schema.org/Hardcover';
  if (/paper|soft|mass market|trade/.test(f)) return 'https://schema.org/Paperback';
  return null;
}

/** Cuts at a word boundary and adds an ellipsis; used for meta descriptions and previews. */
export function truncate(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/** A stable small number from the title, to vary placeholder colours between books. */
export function paletteIndex(text: string, size: number): number {
  let hash = 0;
  for (const char of text) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return hash % size;
}
