export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function sitemapXml(
  baseUrl: string,
  rows: ReadonlyArray<{ slug: string; updated_at: string }>,
  /** Site-relative paths of other pages (author and series pages), listed after the books. */
  extraPaths: readonly string[] = [],
): string {
  const urls = rows.map(
    (row) =>
      `<url><loc>${escapeXml(`${baseUrl}/book/${encodeURIComponent(row.slug)}`)}</loc><lastmod>${escapeXml(row.updated_at.slice(0, 10))}</lastmod></url>`,
  );
  for (const path of extraPaths) urls.push(`<url><loc>${escapeXml(`${baseUrl}${path}`)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>\n`;
}
