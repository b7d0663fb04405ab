import { type Static, Type } from 'typebox';
import { readCookie, serializeCookie } from '../../domain/cookies.js';
import type { NotFoundReason, ResolveOutcome } from '../../services/resolve.js';

const EXAMPLE_BASE = 'https://booklink.example';

export const ResolveFound = Type.Object(
  {
    status: Type.Literal('found'),
    booklink_url: Type.String({
      description: 'Canonical book page, {base_url}/book/<slug>; never changes, safe to cache',
      examples: [`${EXAMPLE_BASE}/book/the-hobbit-j-r-r-tolkien`],
    }),
    short_url: Type.String({
      description: 'Short form, {base_url}/b/<slug>',
      examples: [`${EXAMPLE_BASE}/b/the-hobbit-j-r-r-tolkien`],
    }),
    title: Type.String({ examples: ['The Hobbit'] }),
    authors: Type.Array(Type.String(), { examples: [['J.R.R. Tolkien']] }),
    cover_url: Type.Union([Type.String(), Type.Null()], {
      description: 'Cover image URL; covers are hosted on several hosts',
    }),
    isbn: Type.Union([Type.String(), Type.Null()], {
      description: 'ISBN-13 of the edition the page describes (null for the rare edition without one)',
      examples: ['9780547928227'],
    }),
  },
  { description: 'The URL names exactly one book' },
);

export const ResolveNotFound = Type.Object(
  {
    status: Type.Literal('not_found'),
    search_url: Type.String({
      description:
        'A search carrying the best text the input offers ({base_url}/search?q=<title words, ISBN or identifier>), or {base_url}/search when it offers none',
      examples: [`${EXAMPLE_BASE}/search?q=the+hobbit`],
    }),
  },
  { description: 'The input cannot be tied to exactly one book (never an error, SPEC 7 rule 1)' },
);

export const ResolveResult = Type.Union([ResolveFound, ResolveNotFound], {
  description: 'Resolve result (SPEC 2.2)',
});

const InputKind = Type.Union([Type.Literal('url'), Type.Literal('isbn'), Type.Literal('text')], {
  description: 'What the input was read as',
});

export const ClientResolveResult = Type.Union(
  [
    Type.Object({ ...ResolveFound.properties, input_kind: InputKind }),
    Type.Object({ ...ResolveNotFound.properties, input_kind: InputKind }),
  ],
  { description: 'Resolve result (SPEC 2.2) plus the kind of input seen' },
);

export type ResolveBody = Static<typeof ResolveResult>;

/** The search page for `text` (relative): where a human goes when the book cannot be determined. */
export function searchPath(text: string | null): string {
  return text ? `/search?${new URLSearchParams({ q: text })}` : '/search';
}

export function bookPath(slug: string): string {
  return `/book/${encodeURIComponent(slug)}`;
}

/** SPEC 2.2: found with the book's fields, or not_found with a search link. */
export function presentResolve(outcome: ResolveOutcome, baseUrl: string): ResolveBody {
  if (outcome.status === 'not_found') {
    return { status: 'not_found', search_url: `${baseUrl}${searchPath(outcome.searchText)}` };
  }
  const { book } = outcome;
  return {
    status: 'found',
    booklink_url: `${baseUrl}${bookPath(book.slug)}`,
    short_url: `${baseUrl}/b/${encodeURIComponent(book.slug)}`,
    title: book.title,
    authors: book.authors,
    cover_url: book.coverUrl,
    isbn: book.isbn13,
  };
}

/** Carries why `/resolve` sent a reader to the search page, for that page only, for two minutes. */
export const RESOLVE_REASON_COOKIE = 'bl_resolve';
const REASONS: readonly NotFoundReason[] = ['unknown_shop', 'not_book', 'no_match'];

/** The shop a pasted link came from, as the search page names it: its host without `www.`. */
export function storeHostOf(url: string): string | null {
  try {
    const parsed = new URL(
      /^[a-z][a-z0-9+.-]*:\/\//i.test(url.trim()) ? url.trim() : `https://${url.trim()}`,
    );
    const host = parsed.hostname.toLowerCase().replace(/^www\./, '');
    return STORE_HOST.test(host) ? host : null;
  } catch {
    return null;
  }
}

const STORE_HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+$/;

/** The cookie's value: the reason, then the shop's host when known (`unknown_shop waterstones.com`). */
export function resolveReasonCookie(
  reason: NotFoundReason | null,
  secure: boolean,
  store: string | null = null,
): string {
  const value = reason ? (store ? `${reason} ${store}` : reason) : '';
  return serializeCookie(RESOLVE_REASON_COOKIE, value, {
    path: '/search',
    maxAgeSeconds: reason ? 120 : 0,
    secure,
  });
}

/** Why a `/resolve` redirect came to the search page, and from which shop's link. */
export interface ResolveNote {
  reason: NotFoundReason;
  store: string | null;
}

/** The reason a `/resolve` redirect left for the search page, or null. */
export function readResolveReason(cookieHeader: string | undefined): ResolveNote | null {
  const value = readCookie(cookieHeader, RESOLVE_REASON_COOKIE) ?? '';
  const [first = '', host = ''] = value.split(' ');
  const reason = REASONS.find((known) => known === first);
  if (!reason) return null;
  return { reason, store: STORE_HOST.test(host) && host.length <= 100 ? host : null };
}
