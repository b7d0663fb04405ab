import type { FastifyRequest } from 'fastify';
import { readCookie } from '../domain/cookies.js';
import {
  FAVOURITES_COOKIE,
  type Favourites,
  formatOfGroup,
  formatsToTry,
  parseFavourites,
} from '../domain/favourites.js';
import { goPath } from '../domain/go-links.js';
import type { LinkGroup } from '../domain/links.js';

export function favouritesOf(request: FastifyRequest): Favourites {
  return parseFavourites(readCookie(request.headers.cookie, FAVOURITES_COOKIE));
}

export interface FavouriteVisit {
  slug: string;
  bookFormat: string | null;
  sfid: number | null;
  partner: string | null;
  src: string | null;
}

/**
 * Where a reader with a favourite store goes instead of the page: `/go/` (so the click is counted) for
 * the first favourite, in the book's own format first, that this book has a link to for this reader.
 * Null when none applies: the page is shown.
 */
export function favouriteTarget(
  favourites: Favourites,
  groups: readonly LinkGroup[],
  visit: FavouriteVisit,
): string | null {
  for (const format of formatsToTry(visit.bookFormat)) {
    const slug = favourites[format];
    if (!slug) continue;
    for (const group of groups) {
      if (formatOfGroup(group.group) !== format) continue;
      const link = group.links.find((candidate) => candidate.destination.slug === slug);
      if (link) {
        return goPath(visit.slug, slug, {
          sfid: visit.sfid,
          country: link.destination.country ?? null,
          partner: visit.partner,
          src: visit.src,
        });
      }
    }
  }
  return null;
}
