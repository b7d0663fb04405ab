import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import { audienceOf } from '../domain/audience.js';
import { negotiateLanguage, type ReaderLanguage } from '../domain/reader-languages.js';
import { readerCountry } from '../domain/storefronts.js';
import { PageCache } from '../services/page-cache.js';
import type { VisitCounter } from '../services/visit-counter.js';
import { type CompressedBody, chooseEncoding, type Encoding, MIN_BYTES } from './compressed.js';
import { isAutomatedClient } from './plugins/guards.js';
import { headersToReplay, Replay, type ReplayGate, type ReplyHeaders } from './replayed-request.js';

/** A response as it left Fastify, after every hook: its headers (less Date and Connection) and body. */
interface SentResponse {
  /** Names and values in turn, as `writeHead` takes them. */
  headers: OutgoingHttpHeader[];
  body: Buffer;
}

/** A rendered book page: its bytes, and how each route sent them in each encoding. */
export interface RenderedPage {
  body: CompressedBody;
  /** The book shown, for its readers' visit count. */
  bookId: number;
  /** By `${route} ${encoding}`: what a plain visit was answered with. */
  sent: Map<string, SentResponse>;
}

/**
 * The page cache's key of a plain visit: no parameter, no cookie (book-pages.ts serialises the rest).
 * The language is part of it: a plain visit's comes from its Accept-Language (or the default).
 */
export const plainPageKey = (slug: string, country: string | null, language: ReaderLanguage) =>
  `${slug}\n${country ?? ''}\n${language}`;

export type { ReplayReporting, TrustProxy } from './replayed-request.js';

interface ReplayOptions extends ReplayGate {
  visits: VisitCounter;
  nextRequestId: () => string;
  /** How long a rendered page is answered as fresh (PAGE_CACHE_MS); then stale while it is rendered again. */
  pageTtlMs: number;
  /** The operator's default country (admin area, else DEFAULT_COUNTRY), exactly as the page route reads it. */
  defaultCountry: () => string;
  /** The operator's default language (admin area, else DEFAULT_LANGUAGE) for an Accept-Language of none of ours. */
  defaultLanguage: () => ReaderLanguage;
}

const PLAIN_VISIT = /^\/(book|b)\/([a-z0-9][a-z0-9-]{0,79})$/;
const ROUTES = { book: '/book/:slug', b: '/b/:slug' } as const;
const NOT_ENCODED = 'identity';

/** `RenderedPage.sent`'s key of a route's answer in an encoding (null: none). */
const sentKey = (route: string, encoding: Encoding | null) => `${route} ${encoding ?? NOT_ENCODED}`;

/**
 * The same keys made once per route and encoding: a replay looks its answer up by a constant string,
 * whose hash V8 keeps, rather than by one concatenated (and hashed) anew on every visit: 0.01 µs a
 * lookup instead of 0.09, measured in process (2026-12-02).
 */
const SENT_KEYS = Object.fromEntries(
  Object.values(ROUTES).map((route) => [
    route,
    { br: sentKey(route, 'br'), gzip: sentKey(route, 'gzip'), none: sentKey(route, null) },
  ]),
) as Record<(typeof ROUTES)[keyof typeof ROUTES], { br: string; gzip: string; none: string }>;

/**
 * Plain visits of cached book pages, answered before Fastify. Most page views are a reader or a bot
 * following a shared link: a GET of `/book/{slug}` or `/b/{slug}` without query string or cookie. The
 * first such visit goes through Fastify, and its response, as every hook left it, is kept with the
 * cached page (`record`); later ones with the same page key and encoding get those bytes again,
 * counted, measured and logged as Fastify would have. Building Fastify's request and reply, running
 * its routing, hooks and validation took most of such a request's time beyond what a bare server
 * spends (bench/README). The kept responses live and
 * die with the page cache (a book or destination change drops them), so a replay never outlives the
 * page it repeats. Anything else (another method, parameters, cookies, an uncached page) goes to Fastify.
 */
export class PageReplay extends Replay {
  readonly rendered: PageCache<RenderedPage>;

  constructor(private readonly options: ReplayOptions) {
    super(options);
    this.rendered = new PageCache<RenderedPage>(5000, options.pageTtlMs);
  }

  /** Keeps what Fastify sent for a plain visit of `page`, so the next such visit is replayed. */
  record(page: RenderedPage, route: string, encoding: Encoding | null, headers: ReplyHeaders, body: Buffer) {
    page.sent.set(sentKey(route, encoding), { headers: headersToReplay(headers, body.length), body });
  }

  /** Answers a plain visit of a cached page and returns true; false leaves the request to Fastify. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    const started = performance.now();
    const reporting = this.reportingNow();
    if (!reporting || request.method !== 'GET') return false;
    const headers = request.headers;
    if (!this.isPlain(headers)) return false;
    const visit = PLAIN_VISIT.exec(request.url ?? '');
    if (!visit) return false;
    const language = negotiateLanguage({
      acceptLanguage: headers['accept-language'],
      fallback: this.options.defaultLanguage(),
    });
    // A stale page goes to Fastify, which answers with it and has it rendered again (book-pages.ts).
    const hit = this.rendered.peek(
      plainPageKey(
        visit[2] ?? '',
        readerCountry(undefined, headers, this.options.defaultCountry()),
        language,
      ),
    );
    if (!hit?.fresh) return false;
    const page = hit.value;
    const route = ROUTES[visit[1] === 'b' ? 'b' : 'book'];
    const encoding = page.body.raw.length >= MIN_BYTES ? chooseEncoding(headers['accept-encoding']) : null;
    const keys = SENT_KEYS[route];
    const sent = page.sent.get(encoding === null ? keys.none : keys[encoding]);
    if (!sent) return false;

    const requestId = this.options.nextRequestId();
    response.writeHead(200, sent.headers);
    response.end(sent.body);
    this.answered({ reporting, request, route, status: 200, requestId, started }, response);
    const userAgent = headers['user-agent'];
    const audience = audienceOf(userAgent, isAutomatedClient(userAgent));
    // One clock read for both counts (each read is about 0.1 µs on this machine).
    const now = Date.now();
    this.options.visits.count(audience, null, now);
    if (audience === 'reader') this.options.visits.countBook(page.bookId, now);
    return true;
  }
}
