import { Type } from 'typebox';
import { FRAME_BOX, fitBox, type OEmbedLimits, THUMBNAIL_BOX } from '../../domain/oembed.js';
import { listPath } from '../../services/lists.js';
import type { OEmbedSubject } from '../../services/oembed.js';
import { fullTitle, joinNames } from '../views/book-format.js';
import { safeUrl } from '../views/html.js';
import { DEFAULT_SITE_NAME } from '../views/layout.js';
import { listTitle } from '../views/list-page.js';
import { bookFrameMarkup, listCardMarkup } from '../views/oembed.js';

/** How long a consumer may keep an answer (the spec's cache_age): the frame itself stays live. */
export const OEMBED_CACHE_AGE = 3600;

/** The oEmbed 1.0 response of type `rich` (spec section 2.3.4), declared once for the serializer and OpenAPI. */
export const OEmbedBody = Type.Object(
  {
    type: Type.Literal('rich'),
    version: Type.Literal('1.0'),
    title: Type.String(),
    author_name: Type.Optional(Type.String({ description: "The book's authors; absent for a list" })),
    provider_name: Type.String(),
    provider_url: Type.String(),
    cache_age: Type.Integer({ description: 'Seconds a consumer may keep this answer' }),
    html: Type.String({ description: 'Markup to embed: an iframe of /embed/{slug} for a book' }),
    width: Type.Integer(),
    height: Type.Integer(),
    thumbnail_url: Type.Optional(Type.String({ description: 'The cover; with its width and height' })),
    thumbnail_width: Type.Optional(Type.Integer()),
    thumbnail_height: Type.Optional(Type.Integer()),
  },
  { description: 'oEmbed 1.0 (https://oembed.com), type rich' },
);

export interface OEmbedAnswer {
  type: 'rich';
  version: '1.0';
  title: string;
  author_name?: string;
  provider_name: string;
  provider_url: string;
  cache_age: number;
  html: string;
  width: number;
  height: number;
  thumbnail_url?: string;
  thumbnail_width?: number;
  thumbnail_height?: number;
}

function thumbnail(coverUrl: string | null, limits: OEmbedLimits) {
  const url = safeUrl(coverUrl);
  if (!url) return {};
  const box = fitBox(THUMBNAIL_BOX, limits);
  return { thumbnail_url: url, thumbnail_width: box.width, thumbnail_height: box.height };
}

export function oembedAnswer(
  subject: OEmbedSubject,
  params: { baseUrl: string; limits: OEmbedLimits; siteName?: string },
): OEmbedAnswer {
  const { baseUrl, limits } = params;
  const common = {
    type: 'rich' as const,
    version: '1.0' as const,
    provider_name: params.siteName ?? DEFAULT_SITE_NAME,
    provider_url: `${baseUrl}/`,
    cache_age: OEMBED_CACHE_AGE,
  };
  const box = fitBox(FRAME_BOX, limits);
  if (subject.kind === 'book') {
    const { book } = subject.loaded;
    const frameUrl = `${baseUrl}/embed/${encodeURIComponent(book.slug)}`;
    return {
      ...common,
      title: fullTitle(book),
      ...(book.authors.length > 0 ? { author_name: joinNames(book.authors) } : {}),
      html: bookFrameMarkup(frameUrl, book.title, box),
      ...box,
      ...thumbnail(book.coverUrl, limits),
    };
  }
  const { list, items } = subject;
  const title = listTitle(list);
  const count = `${items.length} book${items.length === 1 ? '' : 's'}`;
  const names = items.slice(0, 5).map((item) => item.book.title);
  const summary = names.length > 0 ? `${count}: ${names.join(', ')}` : count;
  return {
    ...common,
    title,
    html: listCardMarkup(`${baseUrl}${listPath(list)}`, title, summary),
    ...box,
    ...thumbnail(items.find((item) => item.book.coverUrl)?.book.coverUrl ?? null, limits),
  };
}
