import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { readerCountry } from '../../../domain/storefronts.js';
import { cleanPartnerId } from '../../../services/embeds.js';
import { HttpError } from '../../errors.js';
import { type EmbedData, embedData } from '../../presenters/embed.js';
import { OfferSchema } from '../../presenters/offers.js';
import { requesterOf } from '../../requester.js';
import { findStaticAsset } from '../../views/assets.js';
import { renderEmbedPage } from '../../views/embed-page.js';
import { PAGE_CONTENT_SECURITY_POLICY } from '../../views/layout.js';
import { refuseIfCreationRefused, visitorMayCreate } from '../../write-refusals.js';
import { HtmlPage, type PublicRoutes, pageSchema } from '../public-routes.js';

const CSS_PLACEHOLDER = "'__BOOKLINK_EMBED_CSS__'";

/** web/embed.js with web/embed.css inlined, built once: one request gives the whole widget. */
function embedScript(): { body: Buffer; etag: string } {
  const script = findStaticAsset('embed.js');
  const css = findStaticAsset('embed.css');
  if (!script || !css) throw new Error('web/embed.js and web/embed.css are required');
  const source = script.body.toString('utf8');
  if (!source.includes(CSS_PLACEHOLDER)) throw new Error('web/embed.js lacks its stylesheet placeholder');
  const body = Buffer.from(source.replace(CSS_PLACEHOLDER, () => JSON.stringify(css.body.toString('utf8'))));
  return { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"` };
}

/** Any site may frame the embed page; every other page keeps the layout's own framing rule. */
export const EMBED_PAGE_CSP = `${PAGE_CONTENT_SECURITY_POLICY}; frame-ancestors *`;

const BookParam = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The book slug, or an ISBN-10/13 (a book not yet created is created for a reader)',
  examples: ['pride-and-prejudice-jane-austen', '9780141439518'],
});
const partner = Type.Optional(
  Type.String({
    maxLength: 100,
    description: 'Partner id; its /go/ links carry it. Unknown or malformed ids are ignored, never an error',
  }),
);
const country = Type.Optional(
  Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Storefront country (ISO 3166-1 alpha-2)' }),
);
const cover = Type.Optional(
  Type.Union([Type.Literal('0'), Type.Literal('1'), Type.Literal('false'), Type.Literal('true')], {
    description: 'Show the cover (default) or not',
  }),
);

const lang = Type.Optional(
  Type.String({
    description: 'Language of the embed: en, de, fr, es, it, nl, pt or ja; else Accept-Language',
  }),
);

const EmbedLinkSchema = Type.Object({
  destination: Type.String(),
  name: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  featured: Type.Boolean(),
  url: Type.String({ description: 'Absolute /go/ URL (counts the click, applies the tags)' }),
  kind: Type.Union([Type.Literal('product'), Type.Literal('search')], {
    description: "product: opens the book's own page at the store; search: runs a search there for it",
  }),
  offer: OfferSchema,
});
const EmbedDataSchema = Type.Object({
  book: Type.Object({
    slug: Type.String(),
    title: Type.String(),
    subtitle: Type.Union([Type.String(), Type.Null()]),
    authors: Type.Array(Type.String()),
    cover_url: Type.Union([Type.String(), Type.Null()]),
    url: Type.String(),
  }),
  country: Type.Union([Type.String(), Type.Null()]),
  partner: Type.Union([Type.String(), Type.Null()]),
  language: Type.String({
    description: 'The language of `text` and the group titles (`?lang=`, else Accept-Language)',
  }),
  text: Type.Object({
    label: Type.String(),
    authors: Type.Union([Type.String(), Type.Null()]),
    empty: Type.String(),
    foot: Type.String(),
    new_tab: Type.String(),
    search: Type.String({
      description:
        'The label of a link that runs a search at the store (`kind: search`); `{name}` stands for the store',
    }),
  }),
  groups: Type.Array(
    Type.Object({ group: Type.String(), title: Type.String(), links: Type.Array(EmbedLinkSchema) }),
  ),
  site: Type.Object(
    {
      name: Type.String(),
      url: Type.String(),
      logo_url: Type.Union([Type.String(), Type.Null()]),
      disclosure: Type.String(),
      accent_light: Type.Union([Type.String(), Type.Null()]),
      accent_dark: Type.Union([Type.String(), Type.Null()]),
    },
    {
      description:
        "The operator's name, logo, affiliate disclosure and accent colours (light and dark theme)",
    },
  ),
});

/**
 * The drop-in embed: `/embed.js` (script), `/embed/{book}.json` (its data) and `/embed/{book}` (the
 * iframe page). None of them is under `/api/`, so none counts against a reader's API rate limit: they
 * are public, cacheable pages (like `/book/{slug}`), and a blog post with several embeds must not run
 * its readers into 429s. None reads or sets a cookie, so access codes never apply here.
 */
export const embedRoutes: PublicRoutes = async (app, { services }) => {
  const script = embedScript();
  const baseUrl = services.config.baseUrl;

  /**
   * The embed's data for the book a request names (both the JSON and the iframe page answer from it),
   * or null when there is none; a creation refused for this visitor is said on the reply first.
   */
  const loadData = async (
    request: FastifyRequest,
    reply: FastifyReply,
    asked: { slug: string; country?: string; partner?: string },
  ): Promise<EmbedData | null> => {
    const country = readerCountry(asked.country, request.headers, services.brand.defaultCountry());
    const mayCreate = visitorMayCreate(services, request, request.isAutomated);
    const content = await services.embeds.load(asked.slug, {
      country,
      mayCreate,
      requester: requesterOf(request),
    });
    if (!content) {
      refuseIfCreationRefused(reply, mayCreate);
      return null;
    }
    return embedData(content, {
      baseUrl,
      partner: cleanPartnerId(asked.partner),
      country,
      brand: await services.brand.current(),
    });
  };

  app.get('/embed.js', { schema: { hide: true } }, async (request, reply) => {
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .header('etag', script.etag);
    if (request.headers['if-none-match'] === script.etag) return reply.code(304).send();
    return reply.send(script.body);
  });

  app.get(
    '/embed/:slug.json',
    pageSchema({
      summary: "The embed's data: a book and its public links, grouped, with /go/ URLs",
      params: Type.Object({ slug: BookParam }),
      querystring: Type.Object({ partner, country, lang }),
      response: { 200: EmbedDataSchema, 404: Type.Object({ detail: Type.String() }) },
    }),
    async (request, reply) => {
      const data = await loadData(request, reply, { slug: request.params.slug, ...request.query });
      if (!data) return reply.code(404).send({ detail: 'There is no book at this address.' });
      return reply
        .header('cache-control', 'public, max-age=300')
        .header('vary', 'Cookie, Accept-Language')
        .header('content-language', request.language)
        .send(data);
    },
  );

  app.get(
    '/embed/:slug',
    pageSchema({
      summary: 'The embed as a page for an iframe; it reports its height to the parent (postMessage)',
      params: Type.Object({ slug: BookParam }),
      querystring: Type.Object({ partner, country, cover, lang }),
      response: { 200: HtmlPage },
    }),
    async (request, reply) => {
      const data = await loadData(request, reply, { slug: request.params.slug, ...request.query });
      if (!data) throw new HttpError(404, 'book_not_found', 'There is no book at this address.');
      const withCover = request.query.cover !== '0' && request.query.cover !== 'false';
      return reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', EMBED_PAGE_CSP)
        .header('referrer-policy', 'strict-origin-when-cross-origin')
        .header('cache-control', 'public, max-age=300')
        .header('vary', 'Cookie, Accept-Language')
        .send(renderEmbedPage(data, { cover: withCover, brand: await services.brand.current() }));
    },
  );
};
