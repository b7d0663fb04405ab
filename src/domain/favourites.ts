import type { DestinationGroup } from './groups.js';

/**
 * The reader's favourite store per format ("always open this in Kobo"), kept only in the first-party
 * cookie `bl_fav` that the book page's script writes: `print:amazon|ebook:kobo|audiobook:libro-fm`.
 * Anything malformed is ignored, never an error.
 */
export const FAVOURITES_COOKIE = 'bl_fav';
export const FORMATS = ['print', 'ebook', 'audiobook'] as const;
export type ReadingFormat = (typeof FORMATS)[number];
export type Favourites = Partial<Record<ReadingFormat, string>>;

const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

export function parseFavourites(value: string | null | undefined): Favourites {
  const favourites: Favourites = {};
  for (const part of (value ?? '').slice(0, 500).split('|')) {
    const [format, slug] = part.split(':');
    if (slug && SLUG.test(slug) && (FORMATS as readonly string[]).includes(format ?? '')) {
      favourites[format as ReadingFormat] = slug;
    }
  }
  return favourites;
}

/** The format a group's stores sell: new and used copies are print; libraries and free copies none. */
export function formatOfGroup(group: DestinationGroup): ReadingFormat | null {
  if (group === 'new' || group === 'used') return 'print';
  if (group === 'ebook' || group === 'audiobook') return group;
  return null;
}

/** The book's own format first (an audiobook edition → the audiobook favourite), then print, ebook, audio. */
export function formatsToTry(bookFormat: string | null): ReadingFormat[] {
  const text = (bookFormat ?? '').toLowerCase();
  const own: ReadingFormat = /audio/.test(text)
    ? 'audiobook'
    : /e-?book|kindle|epub|digital/.test(text)
      ? 'ebook'
      : 'print';
  return [own, ...FORMATS.filter((format) => format !== own)];
}

/** The favourite slugs in the order the page pins them (the book's own format first). */
export function favouriteSlugs(favourites: Favourites, bookFormat: string | null): string[] {
  return formatsToTry(bookFormat)
    .map((format) => favourites[format])
    .filter((slug): slug is string => Boolean(slug));
}
