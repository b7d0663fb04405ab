import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import { audienceOf } from '../domain/audience.js';
import { negotiateLanguage, type ReaderLanguage } from '../domain/reader-languages.js';
import { readerCountry } from '../domain/storefronts.js';
import { PageCache } from '../services/page-cache.js';
import type { VisitCounter } from '../services/visit-counter.js';
import { type CompressedBody, chooseEncoding, type Encoding, MIN_BYTES } from './compressed.js';
import { isAutomatedClient } from './plugins/guards.js';
import {
  compileTrust,
  headersToReplay,
  loggedRequest,
  plainHeaders,
  type ReplyHeaders,
  type TrustProxy,
  type TrustTest,
} from './replayed-request.js';
import type { RequestLog } from './request-log.js';

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

export type { TrustProxy } from './replayed-request.js';

/** What a replayed answer reports to, as Fastify's hooks would: the request log and the metrics. */
export interface ReplayReporting {
  log: RequestLog | null;
  observe(method: string, route: string, status: number, seconds: number): void;
}

interface ReplayOptions {
  /** BASE_URL's origin: a request it referred is refused by the guards, never replayed. */
  origin: string;
  trustProxy: TrustProxy;
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
 * lookup instead of 0.09 (bench/runs/2026-12-02-page-cpu.md).
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
export class PageReplay {
  readonly rendered: PageCache<RenderedPage>;
  /** Visits answered here since the start (the metric `booklink_page_replays_total`). */
  replayed = 0;
  private reporting: ReplayReporting | null = null;
  private closing = false;
  private readonly trust: TrustTest;

  constructor(private readonly options: ReplayOptions) {
    this.rendered = new PageCache<RenderedPage>(5000, options.pageTtlMs);
    this.trust = compileTrust(options.trustProxy);
  }

  /** Where replayed answers are logged and measured; nothing is replayed before this. */
  attach(reporting: ReplayReporting): void {
    this.reporting = reporting;
  }

  /** From the start of a shutdown, Fastify answers everything (503 for new requests, as it does). */
  close(): void {
    this.closing = true;
  }

  /** Keeps what Fastify sent for a plain visit of `page`, so the next such visit is replayed. */
  record(page: RenderedPage, route: string, encoding: Encoding | null, headers: ReplyHeaders, body: Buffer) {
    page.sent.set(sentKey(route, encoding), { headers: headersToReplay(headers, body.length), body });
  }

  /** Answers a plain visit of a cached page and returns true; false leaves the request to Fastify. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    const started = performance.now();
    const reporting = this.reporting;
    if (!reporting || this.closing || request.method !== 'GET') return false;
    const headers = request.headers;
    if (!plainHeaders(headers, this.options.origin)) return false;
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
    // Measured and logged once the response is sent, as Fastify's onResponse hooks are. Nearly
    // always the socket took it whole at once, so the report is made now rather than by a listener
    // that 'finish' would call a tick later; otherwise (a slow reader, a pipelined request waiting
    // its turn) the report waits for it.
    if (response.writableFinished) this.report(reporting, request, route, requestId, started);
    else response.once('finish', () => this.report(reporting, request, route, requestId, started));
    this.replayed += 1;
    const userAgent = headers['user-agent'];
    const audience = audienceOf(userAgent, isAutomatedClient(userAgent));
    // One clock read for both counts (each read is about 0.1 µs on this machine).
    const now = Date.now();
    this.options.visits.count(audience, null, now);
    if (audience === 'reader') this.options.visits.countBook(page.bookId, now);
    return true;
  }

  /** Counts and logs an answer sent, as Fastify's onResponse hooks do for the requests it answers. */
  private report(
    reporting: ReplayReporting,
    request: IncomingMessage,
    route: string,
    requestId: string,
    started: number,
  ) {
    const elapsedMs = performance.now() - started;
    reporting.observe('GET', route, 200, elapsedMs / 1000);
    reporting.log?.completed(requestId, loggedRequest(request, this.trust), 200, elapsedMs);
  }
}
