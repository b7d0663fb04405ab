import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { DESTINATION_GROUPS } from '../../../domain/groups.js';
import { SRC_PATTERN } from '../../../domain/partners.js';
import { MAX_SLUG_LENGTH } from '../../../domain/slug.js';
import { readerCountry } from '../../../domain/storefronts.js';
import { HttpError } from '../../errors.js';
import { OfferSchema, offerJson } from '../../presenters/offers.js';
import type { PublicRoutes } from '../public-routes.js';

const Group = Type.Union(
  [
    Type.Literal('new'),
    Type.Literal('used'),
    Type.Literal('ebook'),
    Type.Literal('audiobook'),
    Type.Literal('library'),
    Type.Literal('free'),
  ],
  { description: `One of ${DESTINATION_GROUPS.join(', ')}` },
);

const LinkEntry = Type.Object({
  destination: Type.String({ description: 'Destination slug', examples: ['bookshop'] }),
  name: Type.String({ examples: ['Bookshop.org'] }),
  group: Group,
  label: Type.Union([Type.String(), Type.Null()], {
    description: 'The curated label, e.g. "Signed edition"',
  }),
  go_url: Type.String({
    description: 'Absolute link through /go/: counts the click and adds the affiliate tag',
    examples: ['https://booklink.example/go/the-hobbit-j-r-r-tolkien/bookshop?partner=acme'],
  }),
  featured: Type.Boolean(),
  kind: Type.Union([Type.Literal('product'), Type.Literal('search')], {
    description:
      "What the link opens: product, the book's own page at the store; search, a search there for the book's ISBN or title",
  }),
  offer: OfferSchema,
});

const BookLinksBody = Type.Object(
  {
    slug: Type.String(),
    booklink_url: Type.String(),
    title: Type.String(),
    country: Type.Union([Type.String(), Type.Null()], {
      description:
        "The country the links are for (ISO 3166-1 alpha-2): that country's own shops, the stores' storefronts there and the destinations that serve everywhere",
    }),
    partner: Type.Union([Type.String(), Type.Null()], {
      description: 'The partner whose tags apply; null when none was given or it is unknown or inactive',
    }),
    groups: Type.Array(Type.Object({ group: Group, title: Type.String(), links: Type.Array(LinkEntry) }), {
      description: 'Non-empty groups in the order the book page shows them',
    }),
  },
  { description: "A book's destinations as its page shows them" },
);

const Detail = Type.Object({ detail: Type.String() });

/** `GET /api/v1/books/{slug}/links`: the book page's grouped links as JSON, with an ETag. */
export const apiBookLinksRoutes: PublicRoutes = async (app, { services }) => {
  app.get(
    '/api/v1/books/:slug/links',
    {
      schema: {
        summary: "A book's retailer, library and free links, grouped",
        description:
          "The destinations the book page shows for the caller's storefront country, grouped (new, used, ebook, audiobook, library, free) and ordered as on the page. Send `If-None-Match` with the last `ETag`: an unchanged answer is `304 Not Modified` with no body.",
        tags: ['api'],
        params: Type.Object({
          slug: Type.String({ minLength: 1, maxLength: MAX_SLUG_LENGTH, description: 'The book slug' }),
        }),
        querystring: Type.Object({
          country: Type.Optional(
            Type.String({
              pattern: '^[A-Za-z]{2}$',
              description:
                "The reader's country (ISO 3166-1 alpha-2): its own shops and the stores' storefronts there. Without it: the country switcher's cookie, then the CDN country header, then the Accept-Language region, then the operator's DEFAULT_COUNTRY",
              examples: ['GB'],
            }),
          ),
          partner: Type.Optional(
            Type.String({
              maxLength: 50,
              description:
                "Partner id: the /go/ URLs carry it and use the partner's tags; unknown ids are ignored. Without it, the partner the operator linked to your X-API-Key applies",
            }),
          ),
          src: Type.Optional(
            Type.String({ pattern: SRC_PATTERN, description: 'Placement word carried into the /go/ URLs' }),
          ),
        }),
        headers: Type.Object({
          'if-none-match': Type.Optional(Type.String({ maxLength: 200, description: 'A previous ETag' })),
        }),
        response: {
          200: BookLinksBody,
          404: Detail,
        },
      },
    },
    async (request, reply) => {
      const { country, partner, src } = request.query;
      const links = await services.bookLinks.forBook(request.params.slug, {
        country: readerCountry(country, request.headers, services.brand.defaultCountry()),
        partner,
        src,
        apiKeyId: request.apiKey?.id ?? null,
      });
      if (!links) throw new HttpError(404, 'book_not_found', 'There is no book at this address.');
      const etag = `"${links.etag}"`;
      reply
        .header('etag', etag)
        .header('cache-control', 'public, max-age=300')
        .header('vary', 'Cookie, Accept-Language');
      // 304 has no body, so it has no schema to declare (the description above documents it).
      if (matches(request.headers['if-none-match'], etag)) return (reply as FastifyReply).code(304).send();
      return {
        slug: links.book.slug,
        booklink_url: `${services.config.baseUrl}/book/${encodeURIComponent(links.book.slug)}`,
        title: links.book.title,
        country: links.country,
        partner: links.partner,
        groups: links.groups.map((group) => ({
          group: group.group,
          title: group.title,
          links: group.links.map((link) => ({
            destination: link.destination,
            name: link.name,
            group: link.group,
            label: link.label,
            go_url: link.url,
            featured: link.featured,
            kind: link.kind,
            offer: offerJson(link.offer, links.country),
          })),
        })),
      };
    },
  );
};

/** `If-None-Match` holds one or more ETags (weak or strong) or `*`; weak comparison (RFC 9110 13.1.2). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((value) => value.trim().replace(/^W\//, ''))
    .some((value) => value === '*' || value === etag);
}
