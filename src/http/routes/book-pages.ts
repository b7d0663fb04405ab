import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { parseSlugList } from '../../domain/links.js';
import { MAX_SLUG_LENGTH } from '../../domain/slug.js';
import { readerCountry } from '../../domain/storefronts.js';
import type { Services } from '../../services/container.js';
import { PageCache } from '../../services/page-cache.js';
import { CompressedBody, sendCompressed } from '../compressed.js';
import { HttpError } from '../errors.js';
import { bookPageModel } from '../presenters/book-page.js';
import { Integer } from '../validation.js';
import { renderBookPage } from '../views/book-page.js';
import type { PageTemplate } from '../views/models.js';

const SlugParams = Type.Object({
  slug: Type.String({
    minLength: 1,
    maxLength: MAX_SLUG_LENGTH,
    description: 'The book slug',
    examples: ['the-hobbit-j-r-r-tolkien'],
  }),
});

const sfid = Type.Optional(Integer({ minimum: 1, description: 'The logged search this visit came from' }));
const use = Type.Optional(
  Type.String({ maxLength: 100, description: 'Destination slug to highlight first' }),
);
const top = Type.Optional(
  Type.String({ maxLength: 500, description: 'Comma-separated destination slugs pinned on top' }),
);
const template = Type.Optional(
  Type.String({
    maxLength: 50,
    description: 'Page variant: default, compact or card; unknown values are ignored',
  }),
);

const country = Type.Optional(
  Type.String({
    pattern: '^[A-Za-z]{2}$',
    description:
      'Storefront country (ISO 3166-1 alpha-2); without it, the CDN country header or the browser language decides',
    examples: ['GB'],
  }),
);

const TEMPLATES: readonly PageTemplate[] = ['default', 'compact', 'card'];
const Html = Type.String({ description: 'HTML page' });

interface PageQuery {
  sfid?: number;
  use?: string;
  top?: string;
  template?: string;
  country?: string;
}

/** `/book/{slug}` and `/b/{slug}` (SPEC 4.1): the same full page, so short links unfurl too. */
export const bookPageRoutes: FastifyPluginAsyncTypebox<{ services: Services }> = async (
  app,
  { services },
) => {
  // Bytes, not a string, kept with their compressed forms: a cached page is sent as stored, without
  // re-encoding 20 kB of UTF-8 or compressing it again per request.
  const rendered = new PageCache<CompressedBody>(5000, 30_000);
  services.events.on('book-changed', (slug: string) => rendered.invalidate(slug));
  services.events.on('destinations-changed', () => rendered.clear());

  async function render(slug: string, query: PageQuery, request: FastifyRequest, reply: FastifyReply) {
    // Access codes unlock private destinations, so such a page is the visitor's own (see cache headers).
    const access = await services.access.accessFor(request.headers.cookie);
    const country = readerCountry(query.country, request.headers);
    const chosen = TEMPLATES.find((name) => name === query.template) ?? 'default';
    const useSlug = query.use?.trim().toLowerCase() || null;
    const topSlugs = parseSlugList(query.top);
    const key = JSON.stringify([
      slug,
      chosen,
      useSlug,
      topSlugs,
      query.sfid ?? null,
      [...access].sort(),
      country,
    ]);
    let page = rendered.get(key);
    if (!page) {
      const loaded = await services.pages.load(slug);
      if (!loaded) throw new HttpError(404, 'book_not_found', 'There is no book at this address.');
      const groups = await services.pages.groups(loaded, { use: useSlug, top: topSlugs, access, country });
      const model = bookPageModel(loaded, groups, {
        baseUrl: services.config.baseUrl,
        template: chosen,
        use: useSlug,
        sfid: query.sfid ?? null,
      });
      page = new CompressedBody(Buffer.from(renderBookPage(model)));
      rendered.set(key, slug, page);
    }
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', access.size > 0 ? 'private, no-cache' : 'public, max-age=300')
      // The storefronts shown follow the reader's language (and a CDN's country header, which the CDN keys on).
      .header('vary', 'Cookie, Accept-Language');
    return sendCompressed(request, reply, page);
  }

  app.get(
    '/book/:slug',
    {
      schema: {
        summary: 'The canonical book page with every place to get the book',
        tags: ['pages'],
        params: SlugParams,
        querystring: Type.Object({ sfid, use, top, template, country }),
        response: { 200: Html },
      },
    },
    async (request, reply) => render(request.params.slug, request.query, request, reply),
  );

  app.get(
    '/b/:slug',
    {
      schema: {
        summary: 'Short form of the book page, rendered in full so link unfurling works',
        tags: ['pages'],
        params: SlugParams,
        querystring: Type.Object({ sfid, use, top, country }),
        response: { 200: Html },
      },
    },
    async (request, reply) => render(request.params.slug, request.query, request, reply),
  );
};
