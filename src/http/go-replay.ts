import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import { normalizeIP } from '@fastify/rate-limit';
import type { TagKind } from '../domain/affiliate.js';
import { cdnCountry, readerCountry } from '../domain/storefronts.js';
import type { GoTarget } from '../services/book-pages.js';
import type { ClickRecorder } from '../services/click-recorder.js';
import type { WriteLimits } from '../services/write-limits.js';
import { isAutomatedClient } from './plugins/guards.js';
import {
  headersToReplay,
  Replay,
  type ReplayGate,
  type ReplayReporting,
  type ReplyHeaders,
} from './replayed-request.js';

/** What a plain click of one book's link at one destination, from one country, is answered and counted with. */
interface RecordedClick {
  /** The 302 as it left Fastify, after every hook (less Date and Connection). */
  headers: OutgoingHttpHeader[];
  /** The book's slug, for dropping its answers when it changes. */
  slug: string;
  bookId: number;
  destinationId: number;
  storefront: string;
  tagKind: TagKind;
  /** When the book's load it was built from stops being reused (`GoTarget.until`): then it goes too. */
  until: number;
}

/** What a plain click's answer depends on: its key, the slug it names and the reader's country. */
export interface PlainRequest {
  key: string;
  /** As in the URL, as BookPages keys its loads (and drops them). */
  slug: string;
  country: string | null;
}

/** A plain click on its way through Fastify: its key, and the generation its target was read in. */
export interface PlainClick {
  key: string;
  slug: string;
  mark: number;
  target: GoTarget;
}

interface GoReplayOptions extends ReplayGate {
  nextRequestId: () => string;
  /** The operator's default country (admin area, else DEFAULT_COUNTRY), exactly as the route reads it. */
  defaultCountry: () => string;
  writes: Pick<WriteLimits, 'admit'>;
  clicks: Pick<ClickRecorder, 'record'>;
  /** How many answers are kept at most (the least recently recorded go first). */
  maxEntries?: number;
}

/** A GET of `/go/{slug}/{destination}`, both in the lower case the service writes its links in. */
const PLAIN_CLICK = /^\/go\/([a-z0-9][a-z0-9-]{0,79})\/([a-z0-9][a-z0-9-]{0,99})$/;
const ROUTE = '/go/:slug/:destination';

/** The host a click's Referer names, recorded with it (go.ts and the replay alike). */
export function referrerHost(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    return new URL(referer).hostname || null;
  } catch {
    return null;
  }
}

/**
 * Plain clicks, answered before Fastify (issue 48). Nearly every `/go/` request is a reader following
 * a link of a book page: a GET of `/go/{slug}/{destination}` without query string or cookie. The
 * first such click from a country goes through Fastify; the 302 it was sent, as every hook left it,
 * is kept (`record`), and later ones with the same key get the same headers again. Each is counted
 * exactly as the route counts it (go.ts: the write cap of its address, no click for a bot, the same
 * fields, the wait for the click journal) and measured and logged as Fastify would have. Routing,
 * hooks, validation and Fastify's request and reply were most of a click's time beyond a bare 302
 * (bench/runs/2026-12-02-writer.md): replayed, a click costs the server 88 µs of CPU instead of 114.5
 * (a bot's, no click stored: 28 instead of 49; a bare 302: 16–28), bench/runs/2026-12-02-go-replay.md.
 * What is left is mostly the click's own (journal, buffer, insert) and the request log line.
 *
 * The key is all a plain click's answer depends on: the slug, the destination and the reader's
 * country (a CDN's header, else Accept-Language's region, else the operator's default). A cookie (an
 * access code, the country switcher, the language), a parameter (`country`, `partner`, `sfid`,
 * `src`), another method, a body, a Referer of the bare origin or an unknown link go to Fastify. The
 * kept answers are dropped with the loaded books they were built from (any book, offer, destination,
 * affiliate tag or partner change, `BookPages.onDrop`), on an access-code or brand change, and when
 * that load expires (PAGE_CACHE_MS): one never outlives the target it repeats. At most `maxEntries`.
 */
export class GoReplay extends Replay {
  private readonly recorded = new Map<string, RecordedClick>();
  /** Bumped by every drop: a target read before one is never kept after it. */
  private generation = 0;
  private readonly maxEntries: number;

  constructor(private readonly options: GoReplayOptions) {
    super(options);
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /** Drops the answers of one book (its slug), or of every book (null). */
  forget(slug: string | null): void {
    this.generation += 1;
    if (slug === null) {
      this.recorded.clear();
      return;
    }
    for (const [key, entry] of this.recorded) if (entry.slug === slug) this.recorded.delete(key);
  }

  get size(): number {
    return this.recorded.size;
  }

  /**
   * A click the replay could answer, or null when Fastify must decide it. go.ts asks for the
   * requests it answers, serve() for every request: the same function on both sides.
   */
  plain(request: IncomingMessage): PlainRequest | null {
    if (request.method !== 'GET') return null;
    const headers = request.headers;
    if (!this.isPlain(headers)) return null;
    const click = PLAIN_CLICK.exec(request.url ?? '');
    if (!click) return null;
    const slug = click[1] ?? '';
    const country = readerCountry(undefined, headers, this.options.defaultCountry());
    return { key: `${slug}\n${click[2]}\n${country ?? ''}`, slug, country };
  }

  /** A mark for `record`: the answer is kept only if nothing was dropped since. */
  mark(): number {
    return this.generation;
  }

  /** Keeps the 302 Fastify sent for a plain click, so the next one with its key is replayed. */
  record(click: PlainClick, headers: ReplyHeaders): void {
    if (this.closing || click.mark !== this.generation || click.target.until <= Date.now()) return;
    const { target } = click;
    this.recorded.delete(click.key);
    this.recorded.set(click.key, {
      headers: headersToReplay(headers, 0),
      slug: click.slug,
      bookId: target.book.id,
      destinationId: target.destination.id,
      storefront: target.destination.country ?? '',
      tagKind: target.tag,
      until: target.until,
    });
    while (this.recorded.size > this.maxEntries) {
      const oldest = this.recorded.keys().next().value;
      if (oldest === undefined) break;
      this.recorded.delete(oldest);
    }
  }

  /**
   * Takes a plain click with a kept answer and returns true (the answer follows once the click is
   * counted); false leaves the request to Fastify. `fastify` answers it should counting fail.
   */
  serve(
    request: IncomingMessage,
    response: ServerResponse,
    fastify: (request: IncomingMessage, response: ServerResponse) => void,
  ): boolean {
    const started = performance.now();
    const reporting = this.reportingNow();
    if (!reporting || this.recorded.size === 0) return false;
    const plain = this.plain(request);
    if (plain === null) return false;
    const entry = this.recorded.get(plain.key);
    if (!entry) return false;
    if (entry.until <= Date.now()) {
      this.recorded.delete(plain.key);
      return false;
    }
    this.answer(reporting, request, response, entry, plain.country, started).catch(() => {
      // Neither the write cap nor the recorder throws (each falls back or retries on its own); were
      // one to, Fastify answers the click as it does any other, error page included.
      if (!response.headersSent) fastify(request, response);
    });
    return true;
  }

  /** Counts the click as go.ts does, then sends the kept 302 and reports it as Fastify's hooks would. */
  private async answer(
    reporting: ReplayReporting,
    request: IncomingMessage,
    response: ServerResponse,
    entry: RecordedClick,
    country: string | null,
    started: number,
  ): Promise<void> {
    const headers = request.headers;
    const ip = this.clientIp(request);
    // As rate-limit.ts's writerOf: the address (an IPv6 one by its /64); /go/ never carries an API key.
    const writer = `ip:${ip.includes(':') ? normalizeIP(ip) : ip}`;
    const counted =
      !isAutomatedClient(headers['user-agent']) &&
      (await this.options.writes.admit('click', writer)).kind === 'admitted';
    if (counted) {
      // Resolves once the click is durable (journaled on disk), at once without a journal.
      await this.options.clicks.record({
        bookId: entry.bookId,
        destinationId: entry.destinationId,
        sfid: null,
        country: cdnCountry(headers) ?? country,
        referrerHost: referrerHost(headers.referer),
        at: new Date(),
        partnerId: null,
        src: null,
        storefront: entry.storefront,
        tagKind: entry.tagKind,
      });
    }
    const requestId = this.options.nextRequestId();
    response.writeHead(302, entry.headers);
    response.end();
    this.answered({ reporting, request, route: ROUTE, status: 302, requestId, started, ip }, response);
  }
}
