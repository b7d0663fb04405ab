/**
 * Title words from a URL slug. Slugs are lossy ("J-R-R-Tolkien"), so we only split them back into
 * words, keep their case, and drop ISBNs and numeric ids that are not part of the title.
 */
const SEPARATORS = /[-_+.\s,]+/g;
const ISBN_OR_ID = /(?<![\p{L}\p{N}])(?:97[89]\d{10}|\d{9}[\dXx]|\d{11,})(?![\p{L}\p{N}])/gu;
const EXTENSION = /\.(?:html?|aspx?|php)$/i;

export function slugWords(slug: string | undefined, noise?: RegExp): string | null {
  if (!slug) return null;
  let text = slug.replace(EXTENSION, '').replace(ISBN_OR_ID, ' ');
  text = text.replace(SEPARATORS, ' ').trim();
  if (noise) text = text.replace(noise, ' ').replace(/\s+/g, ' ').trim();
  // Numbers-only slugs are ids or prices, except a lone short number: "1984", "2666", "451".
  if (!/\p{L}/u.test(text) && !/^\d{3,4}$/.test(text)) return null;
  return text;
}
