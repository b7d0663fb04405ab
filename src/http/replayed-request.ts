import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeader } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { LoggedRequest } from './request-log.js';

/**
 * What the replays in front of Fastify (page-replay.ts, go-replay.ts) need to read a raw request as
 * Fastify would, and to keep a response as Fastify sent it.
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
