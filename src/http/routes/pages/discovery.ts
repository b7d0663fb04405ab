import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'typebox';
import { projectRoot } from '../../../paths.js';
import type { Brand } from '../../../services/brand.js';
import { escapeXml, sitemapXml } from '../../presenters/sitemap.js';
import { Integer } from '../../validation.js';
import { renderDevelopersPage } from '../../views/developers-page.js';
import { HtmlPage, type PublicRoutes } from '../public-routes.js';

/** Fills the guide's placeholders with this deployment's origin, name and contact. */
function fillTemplate(text: string, baseUrl: string, brand: Brand): string {
  const contact = brand.contactEmail
    ? ` Keys are issued on request to ${brand.contactEmail}.`
    : ' Ask the operator of this service for one.';
  return text
    .replaceAll('{{BASE_URL}}', baseUrl)
    .replaceAll('{{SITE_NAME}}', brand.siteName)
    .replaceAll('{{CONTACT_LINE}}', contact);
}

interface Documents {
  developers: string;
  developersHtml: string;
  llms: string;
}

// Each URL carries its nine hreflang alternates (~1 kB): 20,000 keep a file well under the 50 MB cap.
const SITEMAP_LIMIT = 20_000;

/** True when the client asks for HTML and not for markdown (a browser following the footer link). */
function prefersHtml(accept: string | undefined): boolean {
  return !!accept && accept.includes('text/html') && !accept.includes('text/markdown');
}

/** `/developers.md`, `/llms.txt` and `/sitemap.xml` (SPEC 1, DESIGN): the service describes itself. */
export const discoveryRoutes: PublicRoutes = async (app, { services }) => {
  const { baseUrl } = services.config;
  const docs = join(projectRoot(), 'docs');
  const developersTemplate = readFileSync(join(docs, 'developers.md'), 'utf8');
  const llmsTemplate = readFileSync(join(docs, 'llms.txt'), 'utf8');
  // Filled once per brand: the brand object is new after every change, on every instance.
  const filled = new WeakMap<Brand, Documents>();
  const documents = async (): Promise<Documents> => {
    const brand = await services.brand.current();
    let found = filled.get(brand);
    if (!found) {
      const developers = fillTemplate(developersTemplate, baseUrl, brand);
      found = {
        developers,
        developersHtml: renderDevelopersPage(developers, baseUrl, brand),
        llms: fillTemplate(llmsTemplate, baseUrl, brand),
      };
      filled.set(brand, found);
    }
    return found;
  };

  app.get(
    '/developers.md',
    {
      schema: {
        summary: 'Integration guide (markdown)',
        tags: ['discovery'],
        response: { 200: Type.String() },
      },
    },
    // A browser (text/html before markdown) reads the HTML rendering; agents and curl get markdown.
    async (request, reply) =>
      prefersHtml(request.headers.accept)
        ? reply.header('vary', 'Accept').redirect('/developers', 302)
        : reply
            .type('text/markdown; charset=utf-8')
            .header('vary', 'Accept')
            .send((await documents()).developers),
  );

  app.get(
    '/developers',
    {
      schema: {
        summary: 'Integration guide (HTML)',
        tags: ['discovery'],
        response: { 200: HtmlPage },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send((await documents()).developersHtml),
  );

  app.get(
    '/llms.txt',
    {
      schema: { summary: 'Short index for AI agents', tags: ['discovery'], response: { 200: Type.String() } },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send((await documents()).llms),
  );

  app.get(
    '/sitemap.xml',
    {
      schema: {
        summary:
          'Every book page with its hreflang alternates, newest changes first (a sitemap index beyond 20,000 books)',
        tags: ['discovery'],
        querystring: Type.Object({ page: Type.Optional(Integer({ minimum: 1, maximum: 10_000 })) }),
        response: { 200: Type.String() },
      },
    },
    async (request, reply) => {
      const { sitemap } = services;
      const page = request.query.page;
      const total = await sitemap.bookCount();
      reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600');
      if (page === undefined && total > SITEMAP_LIMIT) {
        const pages = Math.ceil(total / SITEMAP_LIMIT);
        const entries = Array.from(
          { length: pages },
          (_, index) =>
            `<sitemap><loc>${escapeXml(`${baseUrl}/sitemap.xml?page=${index + 1}`)}</loc></sitemap>`,
        );
        return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</sitemapindex>\n`;
      }
      const rows = await sitemap.books(SITEMAP_LIMIT, ((page ?? 1) - 1) * SITEMAP_LIMIT);
      // Author and series pages ride along while everything fits in one sitemap (not in an index's pages).
      const shelves = page === undefined ? await services.shelves.paths(SITEMAP_LIMIT - rows.length) : [];
      return sitemapXml(baseUrl, rows, shelves);
    },
  );
};
