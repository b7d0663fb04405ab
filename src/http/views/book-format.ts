import { BOOK_FORMATS } from '../../domain/book-record.js';
import type { DestinationGroup } from '../../domain/groups.js';
import type { MessageKey } from '../i18n/catalogue.js';
import { currentLanguage, t } from '../i18n/context.js';
import { html, type SafeHtml } from './html.js';
import type { BookView } from './models.js';

/** Display helpers shared by the book page, its meta tags and JSON-LD. Pure string work. */

/** "A, B and C" in the page's language (Intl.ListFormat), formatters made once per language. */
const LISTS = new Map<string, Intl.ListFormat>();

function listFormat(): Intl.ListFormat {
  const language = currentLanguage();
  let list = LISTS.get(language);
  if (!list) {
    list = new Intl.ListFormat(language, { style: 'long', type: 'conjunction' });
    LISTS.set(language, list);
  }
  return list;
}

export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return listFormat().format(names);
}

/** The same list of names as markup (each name a link or a span). */
export function nameList(names: readonly SafeHtml[]): SafeHtml {
  const parts = listFormat().formatToParts(names.map((_, i) => String(i)));
  return html`${parts.map((part) => (part.type === 'element' ? (names[Number(part.value)] ?? '') : part.value))}`;
}

/** The group title a page shows: "Buy new", "Neu kaufen"… */
export function groupTitle(group: DestinationGroup): string {
  return t(GROUP_KEYS[group]);
}

const GROUP_KEYS: Readonly<Record<DestinationGroup, MessageKey>> = {
  new: 'group.new',
  used: 'group.used',
  ebook: 'group.ebook',
  audiobook: 'group.audiobook',
  library: 'group.library',
  free: 'group.free',
};

/** "Title: Subtitle", as a reader would cite it. */
export function fullTitle(book: BookView): string {
  return book.subtitle ? `${book.title}: ${book.subtitle}` : book.title;
}

const DATE_FORMATS = new Map<string, { months: Intl.DateTimeFormat; days: Intl.DateTimeFormat }>();

/** English pages keep the day-month-year order they always had; other languages their own. */
function dateFormats() {
  const language = currentLanguage();
  let formats = DATE_FORMATS.get(language);
  if (!formats) {
    const locale = language === 'en' ? 'en-GB' : language;
    formats = {
      months: new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }),
      days: new Intl.DateTimeFormat(locale, {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }),
    };
    DATE_FORMATS.set(language, formats);
  }
  return formats;
}

/** Providers give YYYY, YYYY-MM or YYYY-MM-DD; show only the precision we have. */
export function displayDate(date: string): string {
  const match = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(date);
  if (!match) return date;
  const [, year, month, day] = match;
  if (!month) return year ?? date;
  const when = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day ?? 1)));
  if (Number.isNaN(when.getTime())) return date;
  const formats = dateFormats();
  return (day ? formats.days : formats.months).format(when);
}

export function yearOf(date: string | null): string | null {
  return date ? (/^\d{4}/.exec(date)?.[0] ?? null) : null;
}

const LANGUAGE_NAMES = new Map<string, Intl.DisplayNames>();

/** "en" → "English"; a name that is already a name passes through. */
export function displayLanguage(language: string): string {
  if (!/^[a-z]{2,3}(?:-[A-Za-z]{2,4})?$/.test(language)) return language;
  try {
    const page = currentLanguage();
    let names = LANGUAGE_NAMES.get(page);
    if (!names) {
      names = new Intl.DisplayNames([page], { type: 'language' });
      LANGUAGE_NAMES.set(page, names);
    }
    const name = names.of(language) ?? language;
    return name.charAt(0).toLocaleUpperCase(page) + name.slice(1);
  } catch {
    return language;
  }
}

/**
 * A format in the page's language: the formats Booklink knows by their catalogue names
 * ("Taschenbuch", "Broché"), any other string a source gave as written, capitalised.
 */
export function displayFormat(format: string): string {
  const known = (BOOK_FORMATS as readonly string[]).includes(format);
  const key = !known ? 'unknown' : format === 'other' ? 'other_format' : format.replace(/-/g, '_');
  return t('book.format.name', { format: key, name: format.charAt(0).toUpperCase() + format.slice(1) });
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
