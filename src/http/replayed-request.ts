import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { LoggedRequest, RequestLog } from './request-log.js';

/**
 * What the replays in front of Fastify (page-replay.ts, go-replay.ts) need to read a raw request as
 * Fastify would and to keep a response as Fastify sent it, and `Replay`, the part of them both share.
 */

/**
 * Whether a request's headers leave nothing for Fastify's guards to judge: no cookie, no Referer of the
 * bare service origin (403), no declared body (a charset the guards refuse is a 415, a length or an
 * encoding a body). Both replays answer only such requests.
 */
export function plainHeaders(headers: IncomingHttpHeaders, origin: string): boolean {
  return (
    headers.cookie === undefined &&
    headers.referer !== origin &&
    headers['content-type'] === undefined &&
    headers['content-length'] === undefined &&
    headers['transfer-encoding'] === undefined
  );
}

/** Whom TRUST_PROXY trusts to name the client (Fastify's `trustProxy`, as app.ts passes it). */
export type TrustProxy = false | string[] | ((address: string, hop: number) => boolean);

/** Trusted proxies as one test of an address and its hop, as Fastify compiles them; null: none. */
export type TrustTest = ((address: string, hop: number) => boolean) | null;

export function compileTrust(trustProxy: TrustProxy): TrustTest {
  if (trustProxy === false) return null;
  return typeof trustProxy === 'function' ? trustProxy : proxyAddr.compile(trustProxy);
}

/** The client's address as Fastify's `request.ip` gives it: the socket's, or through trusted proxies. */
export function clientIp(request: IncomingMessage, trust: TrustTest): string {
  const peer = request.socket.remoteAddress ?? '';
  return trust ? (proxyAddr.all(request, trust).pop() ?? peer) : peer;
}

/** The request as Fastify's request log shows it: host and address through trusted proxies. */
export function loggedRequest(
  request: IncomingMessage,
  trust: TrustTest,
  ip = clientIp(request, trust),
): LoggedRequest {
  const headers = request.headers;
  const forwardedHost = headers['x-forwarded-host']?.toString();
  return {
    method: request.method ?? 'GET',
    url: request.url ?? '',
    host:
      trust && forwardedHost && trust(request.socket.remoteAddress ?? '', 0)
        ? (forwardedHost.split(',').pop() ?? '').trim()
        : (headers.host ?? ''),
    ip,
    headers,
  };
}

/** Response headers as Fastify's `reply.getHeaders()` gives them. */
export type ReplyHeaders = Readonly<Record<string, string | number | string[] | undefined>>;

/**
 * A reply's headers as `writeHead` takes them (names and values in turn), its Content-Length that
 * of `bodyLength`; Date and Connection are Node's, added to each response as it is sent.
 */
export function headersToReplay(headers: ReplyHeaders, bodyLength: number): OutgoingHttpHeader[] {
  const flat: OutgoingHttpHeader[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && name !== 'content-length') flat.push(name, value);
  }
  flat.push('content-length', bodyLength);
  return flat;
}

/** What a replayed answer reports to, as Fastify's hooks would: the request log and the metrics. */
export interface ReplayReporting {
  log: RequestLog | null;
  observe(method: string, route: string, status: number, seconds: number): void;
}

export interface ReplayGate {
  /** BASE_URL's origin: a request it referred is refused by the guards, never replayed. */
  origin: string;
  trustProxy: TrustProxy;
}

/**
 * What both replays share: which requests they may answer (plain ones, while not shutting down, once
 * reporting is attached), the client's address through trusted proxies, and the report of an answer
 * sent, as Fastify's onResponse hooks make it.
 */
export abstract class Replay {
  /** Answers replayed since the start (the metrics `booklink_page_replays_total`, `booklink_go_replays_total`). */
  replayed = 0;
  protected closing = false;
  private reporting: ReplayReporting | null = null;
  private readonly trust: TrustTest;
  private readonly origin: string;

  constructor(gate: ReplayGate) {
    this.trust = compileTrust(gate.trustProxy);
    this.origin = gate.origin;
  }

  /** Where replayed answers are logged and measured; nothing is replayed before this. */
  attach(reporting: ReplayReporting): void {
    this.reporting = reporting;
  }

  /** From the start of a shutdown, Fastify answers everything (503 for new requests, as it does). */
  close(): void {
    this.closing = true;
  }

  /** Where to report an answer to, or null when none may be replayed now (before attach, while closing). */
  protected reportingNow(): ReplayReporting | null {
    return this.closing ? null : this.reporting;
  }

  /** Whether the headers leave nothing for the guards to judge (`plainHeaders`). */
  protected isPlain(headers: IncomingHttpHeaders): boolean {
    return plainHeaders(headers, this.origin);
  }

  protected clientIp(request: IncomingMessage): string {
    return clientIp(request, this.trust);
  }

  /**
   * Counts an answer sent and reports it once the response is sent, as Fastify's onResponse hooks
   * are. Nearly always the socket took it whole at once, so the report is made now rather than by a
   * listener that 'finish' would call a tick later; otherwise (a slow reader, a pipelined request
   * waiting its turn) the report waits for it.
   */
  protected answered(answer: SentAnswer, response: ServerResponse): void {
    this.replayed += 1;
    if (response.writableFinished) this.report(answer);
    else response.once('finish', () => this.report(answer));
  }

  private report(answer: SentAnswer): void {
    const elapsedMs = performance.now() - answer.started;
    answer.reporting.observe('GET', answer.route, answer.status, elapsedMs / 1000);
    answer.reporting.log?.completed(
      answer.requestId,
      loggedRequest(answer.request, this.trust, answer.ip),
      answer.status,
      elapsedMs,
    );
  }
}

/** An answer a replay sent, for its report. */
export interface SentAnswer {
  reporting: ReplayReporting;
  request: IncomingMessage;
  route: string;
  status: number;
  requestId: string;
  /** `performance.now()` when the request arrived. */
  started: number;
  /** The client's address, when the replay has read it already. */
  ip?: string;
}
