import { Type } from 'typebox';
import { oembedTarget } from '../../../domain/oembed.js';
import { ValidationProblem } from '../../errors.js';
import { OEmbedBody, oembedAnswer } from '../../presenters/oembed.js';
import { Integer } from '../../validation.js';
import { type PublicRoutes, pageSchema } from '../public-routes.js';

const OEmbedQuery = Type.Object({
  url: Type.String({
    minLength: 1,
    maxLength: 2000,
    description:
      'A book page (/book/{slug}), short link (/b/{slug}) or list page (/list/{id}) of this service',
    examples: ['https://booklink.example/book/the-hobbit-j-r-r-tolkien'],
  }),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('xml')], {
      description: 'json (the default); xml is answered 501 Not Implemented, as the spec allows',
    }),
  ),
  maxwidth: Type.Optional(
    Integer({ minimum: 1, description: 'Largest width the consumer can show, in pixels' }),
  ),
  maxheight: Type.Optional(
    Integer({ minimum: 1, description: 'Largest height the consumer can show, in pixels' }),
  ),
});

const Detail = Type.Object({ detail: Type.String() });

function absoluteUrl(value: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new ValidationProblem([
      {
        type: 'url_parsing',
        loc: ['query', 'url'],
        msg: 'Input should be a valid URL, relative URL without a base',
        input: value,
      },
    ]);
  }
}

/**
 * `GET /oembed` (oEmbed 1.0, https://oembed.com): what WordPress, Ghost or Discourse embed when a post
 * names one of our links; pages point here with a discovery `<link>`. Public and cacheable like the
 * embed it frames; an answer depends on its query only.
 */
export const oembedRoutes: PublicRoutes = async (app, { services }) => {
  const baseUrl = services.config.baseUrl;
  app.get(
    '/oembed',
    pageSchema({
      summary: 'oEmbed: the embeddable card (rich type, an iframe of /embed/{slug}) of a book or list link',
      querystring: OEmbedQuery,
      response: { 200: OEmbedBody, 404: Detail, 501: Detail },
    }),
    async (request, reply) => {
      const { url, format, maxwidth, maxheight } = request.query;
      const target = oembedTarget(absoluteUrl(url), baseUrl);
      if (format === 'xml') return reply.code(501).send({ detail: 'Only format=json is available.' });
      const subject = target ? await services.oembeds.load(target) : null;
      if (!subject) return reply.code(404).send({ detail: 'This address is not a book or list of ours.' });
      return reply.header('cache-control', 'public, max-age=300').send(
        oembedAnswer(subject, {
          baseUrl,
          limits: { maxwidth, maxheight },
          siteName: (await services.brand.current()).siteName,
        }),
      );
    },
  );
};
