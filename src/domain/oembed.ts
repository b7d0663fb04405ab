/**
 * oEmbed (https://oembed.com): which of our URLs have an embedded representation, and how big it is.
 * Pure: the route reads the query, the services load what a link names.
 */

/** A link of ours an oEmbed consumer may ask about: a book page (or its short link) or a list page. */
export type OEmbedTarget = { kind: 'book'; slug: string } | { kind: 'list'; ref: string };

/** A width and a height in CSS pixels. */
export interface Box {
  width: number;
  height: number;
}

/** The consumer's `maxwidth` and `maxheight`, when it gave them. */
export interface OEmbedLimits {
  maxwidth?: number;
  maxheight?: number;
}

/** `/book/{slug}`, `/b/{slug}` and `/list/{id}` or `/list/{id}-{words}`, one path segment each. */
const PATHS: ReadonlyArray<[RegExp, (segment: string) => OEmbedTarget]> = [
  [/^\/(?:book|b)\/([^/]+)\/?$/, (slug) => ({ kind: 'book', slug })],
  [/^\/list\/([^/]+)\/?$/, (ref) => ({ kind: 'list', ref })],
];

/**
 * The target a URL names when it is one of ours: same host and port as the base URL (http or https,
 * since consumers normalise schemes), and a path above. Anything else is someone else's link.
 */
export function oembedTarget(url: URL, baseUrl: string): OEmbedTarget | null {
  const base = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.host !== base.host) return null;
  const basePath = base.pathname.replace(/\/+$/, '');
  if (!url.pathname.startsWith(`${basePath}/`)) return null;
  const path = url.pathname.slice(basePath.length);
  for (const [pattern, target] of PATHS) {
    const segment = pattern.exec(path)?.[1];
    if (segment === undefined) continue;
    try {
      return target(decodeURIComponent(segment));
    } catch {
      return null; // a malformed %-escape names nothing of ours
    }
  }
  return null;
}

/**
 * The box shrunk, keeping its proportions, until it fits the consumer's maxwidth and maxheight (the
 * spec's "must respect"); never grown. Sizes are whole pixels, at least 1.
 */
export function fitBox(box: Box, limits: OEmbedLimits): Box {
  const scale = Math.min(
    1,
    limits.maxwidth !== undefined ? limits.maxwidth / box.width : 1,
    limits.maxheight !== undefined ? limits.maxheight / box.height : 1,
  );
  return {
    width: Math.max(1, Math.floor(box.width * scale)),
    height: Math.max(1, Math.floor(box.height * scale)),
  };
}

/** The embed frame: narrower than a blog column, tall enough for two groups of shop buttons. */
export const FRAME_BOX: Box = { width: 480, height: 360 };

/**
 * Covers come from many sources at many sizes; consumers show the thumbnail at the size we name, so
 * we name a book's usual 2:3 shape (the browser scales the image into it).
 */
export const THUMBNAIL_BOX: Box = { width: 200, height: 300 };
