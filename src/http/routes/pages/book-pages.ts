import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import { Type } from 'typebox';
import { audienceOf } from '../../../domain/audience.js';
import { type Favourites, favouriteSlugs } from '../../../domain/favourites.js';
import { parseSlugList } from '../../../domain/links.js';
import { normalisePartnerId, normaliseSrc, SRC_PATTERN } from '../../../domain/partners.js';
import type { ReaderLanguage } from '../../../domain/reader-languages.js';
import { MAX_SLUG_LENGTH } from '../../../domain/slug.js';
import { readerCountry } from '../../../domain/storefronts.js';
import type { Services } from '../../../services/container.js';
import { RefreshQueue } from '../../../services/refresh-queue.js';
import { CompressedBody, type Encoding, sendCompressed } from '../../compressed.js';
import { HttpError } from '../../errors.js';
import { favouritesOf, favouriteTarget } from '../../favourite-store.js';
import { inLanguage } from '../../i18n/context.js';
import { type PageReplay, plainPageKey, type RenderedPage } from '../../page-replay.js';
import { bookPageModel } from '../../presenters/book-page.js';
import { Integer } from '../../validation.js';
import { renderBookPage } from '../../views/book-page.js';
import type { PageTemplate } from '../../views/models.js';
import { HtmlPage } from '../public-routes.js';

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
      "The reader's country (ISO 3166-1 alpha-2): its own shops and the stores' storefronts there. Without it: the country switcher's cookie, the CDN country header, the browser language's region, then DEFAULT_COUNTRY",
    examples: ['GB'],
  }),
);

const partner = Type.Optional(
  Type.String({
    maxLength: 50,
    description:
      "Partner id, carried into the page's /go/ links (the partner's tags); unknown ids are ignored",
  }),
);
const src = Type.Optional(
  Type.String({
    pattern: SRC_PATTERN,
    description: 'Placement word (qr, newsletter, bio…): counted with the visit and carried into /go/ links',
  }),
);
const full = Type.Optional(
  Type.Literal('1', { description: 'Always show the page, even to a reader who picked a favourite store' }),
);
const go = Type.Optional(
  Type.Literal('1', {
    description: 'Send a reader who picked a favourite store straight there (through /go/)',
  }),
);

const lang = Type.Optional(
  Type.String({
    maxLength: 10,
    description:
      'Page language: en, de, fr, es, it, nl, pt or ja; else the language cookie, Accept-Language, DEFAULT_LANGUAGE',
  }),
);

const TEMPLATES: readonly PageTemplate[] = ['default', 'compact', 'card'];
const NO_ACCESS: ReadonlySet<number> = new Set();
const NO_FAVOURITES: Favourites = Object.freeze({});

interface PageQuery {
  sfid?: number;
  use?: string;
  top?: string;
  template?: string;
  country?: string;
  partner?: string;
  src?: string;
  full?: '1';
  go?: '1';
}

/**
 * The page cache's key: everything the page shown depends on. A plain visit (no parameter, no access
 * code), most page views, gets a short key without serialising the rest.
 */
function pageKey(
  language: ReaderLanguage,
  slug: string,
  country: string | null,
  template: PageTemplate,
  use: string | null,
  top: readonly string[],
  sfid: number | undefined,
  access: ReadonlySet<number>,
  partner: string | null,
  placement: string | null,
): string {
  const plain =
    template === 'default' &&
    !use &&
    top.length === 0 &&
    sfid === undefined &&
    access.size === 0 &&
    !partner &&
    !placement;
  if (plain) return plainPageKey(slug, country, language);
  return JSON.stringify([
    language,
    slug,
    country,
    template,
    use,
    top,
    sfid ?? null,
    [...access].sort(),
    partner,
    placement,
  ]);
}

/** `/book/{slug}` and `/b/{slug}` (SPEC 4.1): the same full page, so short links unfurl too. */
export const bookPageRoutes: FastifyPluginAsyncTypebox<{ services: Services; replay: PageReplay }> = async (
  app,
  { services, replay },
) => {
  // Bytes, not a string, kept with their compressed forms: a cached page is sent as stored, without
  // re-encoding 20 kB of UTF-8 or compressing it again per request. Plain visits of a cached page
  // are answered by the replay, before Fastify, with what the first of them was sent.
  const rendered = replay.rendered;
  const refreshes = new RefreshQueue((error) => app.log.error({ err: error }, 'book page refresh failed'));
  services.events.on('book-changed', (slug: string) => rendered.invalidate(slug));
  // Offers read in the background arrived (on any instance): the book's pages show them next visit.
  services.events.on('offers-changed', (slug: string) => rendered.invalidate(slug));
  services.events.on('destinations-changed', () => rendered.clear());
  services.events.on('brand-changed', () => rendered.clear());
  /** Plain visits being answered through Fastify, and their page: what they are sent is kept. */
  const replayable = new WeakMap<FastifyRequest, RenderedPage>();
  const keepForReplay: onSendHookHandler = (request, reply, payload, done) => {
    const page = replayable.get(request);
    if (page && reply.statusCode === 200 && Buffer.isBuffer(payload)) {
      const encoding = reply.getHeader('content-encoding') as Encoding | undefined;
      replay.record(page, request.routeOptions.url ?? '', encoding ?? null, reply.getHeaders(), payload);
    }
    done(null, payload);
  };

  /**
   * `redirect`: `/b/{slug}` and `/book/{slug}?go=1` send a reader (never a bot or link unfurler) who
   * picked a favourite store straight there through `/go/`, unless `full=1` asks for the page.
   */
  async function render(
    slug: string,
    query: PageQuery,
    request: FastifyRequest,
    reply: FastifyReply,
    redirect: boolean,
  ) {
    // Access grants and favourite stores live in cookies: a visitor without any (most page views)
    // has neither, and the page is served without reading them.
    const cookie = request.headers.cookie;
    // Access codes unlock private destinations, so such a page is the visitor's own (see cache headers).
    const access = cookie ? await services.access.accessFor(cookie) : NO_ACCESS;
    const country = readerCountry(query.country, request.headers, services.brand.defaultCountry());
    const chosen = TEMPLATES.find((name) => name === query.template) ?? 'default';
    const useSlug = query.use?.trim().toLowerCase() || null;
    const partnerId = normalisePartnerId(query.partner);
    const placement = normaliseSrc(query.src);
    const audience = audienceOf(request.headers['user-agent'], request.isAutomated);
    services.visits.count(audience, placement);
    const favourites = cookie && !request.isAutomated ? favouritesOf(request) : NO_FAVOURITES;
    const hasFavourites = Object.keys(favourites).length > 0;
    if (hasFavourites && redirect && query.full !== '1') {
      const target = await favouriteRedirect(slug, query, request, { access, country, partnerId, placement });
      if (target)
        return reply
          .header('cache-control', 'private, no-store')
          .header('vary', 'Cookie')
          .redirect(target, 302);
    }
    // The reader's favourite stores come first on the page, after any `top=` the link asked for.
    const topSlugs =
      query.top || hasFavourites
        ? [...new Set([...parseSlugList(query.top), ...favouriteSlugs(favourites, null)])]
        : [];
    const key = pageKey(
      request.language,
      slug,
      country,
      chosen,
      useSlug,
      topSlugs,
      query.sfid,
      access,
      partnerId,
      placement,
    );
    // A stale page is answered as it is and rendered again in the background (page-cache.ts).
    const renderPage = async (): Promise<RenderedPage | null> => {
      const loaded = await services.pages.load(slug);
      if (!loaded) return null;
      const groups = await services.pages.groups(loaded, { use: useSlug, top: topSlugs, access, country });
      const model = bookPageModel(loaded, groups, {
        baseUrl: services.config.baseUrl,
        template: chosen,
        use: useSlug,
        sfid: query.sfid ?? null,
        partner: partnerId,
        src: placement,
        country,
        countries: await services.pages.countries(),
        // Stored offers only: missing or stale ones are queued for a background read, never awaited.
        offers: services.pages.offersFor(loaded, country),
      });
      // A page rendered while the brand changed is not kept: the change cleared the cache (the mark).
      const brand = await services.brand.current();
      return {
        body: new CompressedBody(Buffer.from(renderBookPage(model, { brand }))),
        sent: new Map(),
        bookId: loaded.book.id,
      };
    };
    const hit = rendered.peek(key);
    if (hit && !hit.fresh) {
      const mark = rendered.mark();
      // The queue runs outside this request: the page is rendered in this request's language.
      const { language, url } = request;
      refreshes.schedule(key, () =>
        inLanguage(
          language,
          async () => {
            const fresh = await renderPage();
            if (fresh) rendered.set(key, slug, fresh, mark);
            else rendered.invalidate(slug);
          },
          url,
        ),
      );
    }
    let page = hit?.value;
    if (!page) {
      const mark = rendered.mark();
      const made = await renderPage();
      if (!made) throw new HttpError(404, 'book_not_found', 'There is no book at this address.');
      rendered.set(key, slug, made, mark);
      page = made;
    }
    if (audience === 'reader') services.visits.countBook(page.bookId);
    // What the replay answers without Fastify (page-replay.ts): a GET without query string or cookie.
    if (request.method === 'GET' && cookie === undefined && !request.url.includes('?'))
      replayable.set(request, page);
    reply
      .type('text/html; charset=utf-8')
      // A page ordered by the reader's favourite stores is theirs alone, like one unlocked by a code.
      .header('cache-control', access.size > 0 || hasFavourites ? 'private, no-cache' : 'public, max-age=300')
      // The storefronts shown follow the reader's language (and a CDN's country header, which the CDN keys on).
      .header('vary', 'Cookie, Accept-Language');
    return sendCompressed(request, reply, page.body);
  }

  async function favouriteRedirect(
    slug: string,
    query: PageQuery,
    request: FastifyRequest,
    reader: {
      access: ReadonlySet<number>;
      country: string | null;
      partnerId: string | null;
      placement: string | null;
    },
  ): Promise<string | null> {
    const loaded = await services.pages.load(slug);
    if (!loaded) return null;
    const partner = await services.partners.active(reader.partnerId);
    const groups = await services.pages.groups(loaded, {
      access: reader.access,
      country: reader.country,
      partner,
    });
    const target = favouriteTarget(favouritesOf(request), groups, {
      slug: loaded.book.slug,
      bookFormat: loaded.book.format,
      sfid: query.sfid ?? null,
      partner: reader.partnerId,
      src: reader.placement,
    });
    // A reader sent straight to a store visited the book all the same: its click-through counts it.
    if (target) services.visits.countBook(loaded.book.id);
    return target;
  }

  app.get(
    '/book/:slug',
    {
      onSend: keepForReplay,
      schema: {
        summary: 'The canonical book page with every place to get the book',
        tags: ['pages'],
        params: SlugParams,
        querystring: Type.Object({ sfid, use, top, template, country, partner, src, go, full, lang }),
        response: {
          200: HtmlPage,
          302: Type.Null({ description: "With go=1: to the reader's favourite store" }),
        },
      },
    },
    async (request, reply) =>
      render(request.params.slug, request.query, request, reply, request.query.go === '1'),
  );

  app.get(
    '/b/:slug',
    {
      onSend: keepForReplay,
      schema: {
        summary: 'Short form of the book page, rendered in full so link unfurling works',
        tags: ['pages'],
        params: SlugParams,
        description:
          'Bots, link unfurlers and readers without a favourite store get the full page; a reader who picked "always open this in <store>" is sent there through /go/ (302), unless `full=1`.',
        querystring: Type.Object({ sfid, use, top, country, partner, src, full, lang }),
        response: { 200: HtmlPage, 302: Type.Null({ description: "To the reader's favourite store" }) },
      },
    },
    async (request, reply) => render(request.params.slug, request.query, request, reply, true),
  );
};
