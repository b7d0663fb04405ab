import type { IncomingHttpHeaders } from 'node:http';
import { destination } from 'pino';

/** Where request logs go when not to stdout (tests capture them). */
export interface LogStream {
  write(line: string): void;
}

/** Standard output as the request log goes there: written in batches, never more than a moment late. */
export interface StdoutLog extends LogStream {
  /** Writes what is buffered now, without waiting (after the listening line, at shutdown). */
  flushSync(): void;
}

/**
 * Standard output for request logs, buffered: a busy server writes its lines in 4 kB batches rather
 * than starting a write for each line, and a quiet one flushes what it has every 250 ms, so `tail -f`
 * and log shippers stay current. Pino flushes it on exit; a kill -9 loses at most the last quarter
 * second of lines. Each batch is written synchronously, as Node writes to pipes and files on Linux:
 * an asynchronous write hands every batch to a thread of libuv's pool and back, which cost a cached
 * book page a sixth of its throughput (bench/README).
 */
export function bufferedStdout(): StdoutLog {
  return destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: 250 });
}

/** Request headers that carry secrets: never written to a log. */
export const SECRET_HEADERS = ['authorization', 'cookie', 'x-api-key', 'x-edit-token'] as const;

const CENSOR = '[redacted]';

/**
 * The request's headers as logged: a copy (the handlers read the real ones) with the secret ones
 * censored. Node lower-cases header names, so this holds whatever case the client sent. Done here
 * rather than by pino's `redact`, which costs a selective clone of every line's `req` and `res`.
 */
function loggedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of SECRET_HEADERS) {
    if (copy[name] !== undefined) copy[name] = CENSOR;
  }
  return copy;
}

/** What a request log line records of a request: a Fastify request, or one the page replay answered. */
export interface LoggedRequest {
  method: string;
  url: string;
  host: string;
  /** The client's address, through trusted proxies (TRUST_PROXY). */
  ip: string;
  headers: IncomingHttpHeaders;
}

/**
 * Request ids (`reqId` in the log), `req-1`, `req-2`…, as Fastify numbers them: one sequence for
 * Fastify and the page replay, so no two lines of one process share an id.
 */
export function requestIds(): () => string {
  let next = 0;
  return () => {
    next = (next + 1) & 0x7fffffff;
    return `req-${next.toString(36)}`;
  };
}

/**
 * Structured request logs (pino through Fastify): one JSON line per request when it completes, with
 * its headers, status and time (app.ts). Secret request headers are censored. Response headers, and
 * so the cookies the service sets, never reach a log: Fastify's own `res` serializer, kept here,
 * logs a response's status code alone.
 */
export function requestLogOptions(level: string, stream?: LogStream) {
  return {
    level,
    ...(stream ? { stream } : {}),
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: request.url,
        host: request.host,
        remoteAddress: request.ip,
        headers: loggedHeaders(request.headers),
      }),
    },
  };
}
