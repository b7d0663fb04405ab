export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

import { READER_LANGUAGES } from '../../domain/reader-languages.js';

/**
 * The page in every reader language (issue 44): `?lang=` per language and the plain address as
 * x-default, as the pages' own `<link rel="alternate" hreflang>` say.
 */
function alternates(url: string): string {
  const join = url.includes('?') ? '&' : '?';
  const links = READER_LANGUAGES.map(
    (code) =>
      `<xhtml:link rel="alternate" hreflang="${code}" href="${escapeXml(`${url}${join}lang=${code}`)}"/>`,
  );
  return `${links.join('')}<xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(url)}"/>`;
}

export function sitemapXml(
  baseUrl: string,
  rows: ReadonlyArray<{ slug: string; updated_at: string }>,
  /** Site-relative paths of other pages (author and series pages), listed after the books. */
  extraPaths: readonly string[] = [],
): string {
  const urls = rows.map((row) => {
    const url = `${baseUrl}/book/${encodeURIComponent(row.slug)}`;
    return `<url><loc>${escapeXml(url)}</loc><lastmod>${escapeXml(row.updated_at.slice(0, 10))}</lastmod>${alternates(url)}</url>`;
  });
  for (const path of extraPaths) {
    const url = `${baseUrl}${path}`;
    urls.push(`<url><loc>${escapeXml(url)}</loc>${alternates(url)}</url>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${urls.join('')}</urlset>\n`;
}
