import type { IncomingHttpHeaders } from 'node:http';
import { hostname } from 'node:os';
import { destination, levels } from 'pino';
import { prettyFactory } from 'pino-pretty';

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
 * Standard output for request logs, buffered: a busy server writes its lines in 32 kB batches rather
 * than starting a write for each line, and a quiet one flushes what it has every 250 ms, so `tail -f`
 * and log shippers stay current. `flushSync` writes the rest (after the listening line, at shutdown);
 * a kill -9 loses at most the last quarter second of lines. Each batch is written synchronously, as
 * Node writes to pipes and files on Linux: an asynchronous write hands every batch to a thread of
 * libuv's pool and back, which cost a cached book page a sixth of its throughput (bench/README).
 * The lines are gathered here and handed to pino's destination (sonic-boom) a batch at a time: given
 * the lines one by one, sonic-boom measured the UTF-8 length of its whole pending buffer on every
 * write: 3 % of the samples in a CPU profile of a cached book page under wrk (bench/README).
 * Each batch goes as bytes, encoded once, to a destination in sonic-boom's buffer mode: given a
 * string, sonic-boom measured its UTF-8 length twice and encoded it twice (once to write it, once
 * more after the write to account for what was written). Writing a book page's line cost 0.58 µs
 * that way in 4 kB batches (six lines), 0.28 µs as bytes in 32 kB batches (about fifty lines, still
 * within a pipe's 64 kB buffer), in process (2026-12-02; bench/runs/2026-12-03-run-32.md measures a
 * whole line again).
 */
export function bufferedStdout(): StdoutLog {
  if (process.stdout.isTTY) {
    const out = destination({ dest: 1, sync: true });
    return readableLines((line) => out.write(line));
  }
  // sonic-boom's own types give `write` a string only; in buffer mode it takes bytes.
  const out = destination({ dest: 1, sync: true, contentMode: 'buffer' }) as unknown as BytesDestination;
  // `out.write` is looked up on each batch: after a broken pipe, pino replaces it with a no-op.
  return lineBatches((batch) => out.write(Buffer.from(batch, 'utf8')), {
    minLength: 32_768,
    flushEveryMs: 250,
  });
}

/** A sonic-boom destination in buffer mode, as `bufferedStdout` writes to it. */
interface BytesDestination {
  write(bytes: Buffer): boolean;
}

/**
 * The log as a person at a terminal reads it: one line per entry with its time, level and message
 * (pino-pretty), written as it comes. JSON lines are for every other destination (files, pipes, a
 * container's log collector).
 */
function readableLines(write: (text: string) => void): StdoutLog {
  const prettify = prettyFactory({
    colorize: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  return { write: (line) => write(prettify(line)), flushSync: () => undefined };
}

/**
 * Lines gathered into batches for `write`: a batch goes once the lines reach `minLength` characters
 * (UTF-16 units: a threshold, not a byte count), when `flushEveryMs` passes, or on `flushSync`. The
 * timer never keeps the process alive.
 */
export function lineBatches(
  write: (batch: string) => void,
  { minLength, flushEveryMs }: { minLength: number; flushEveryMs: number },
): StdoutLog {
  let lines: string[] = [];
  let length = 0;
  const flushSync = () => {
    if (lines.length === 0) return;
    const batch = lines.join('');
    lines = [];
    length = 0;
    write(batch);
  };
  setInterval(flushSync, flushEveryMs).unref();
  return {
    write(line) {
      lines.push(line);
      length += line.length;
      if (length >= minLength) flushSync();
    },
    flushSync,
  };
}

/** Request headers that carry secrets: never written to a log. */
export const SECRET_HEADERS = ['authorization', 'cookie', 'x-api-key', 'x-edit-token'] as const;

const CENSOR = '[redacted]';

/**
 * The request's headers as logged, with the secret ones censored. Node lower-cases header names, so
 * this holds whatever case the client sent. The handlers' own headers are copied only when one needs
 * censoring: most requests carry none.
 */
function loggedHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  if (!SECRET_HEADERS.some((name) => headers[name] !== undefined)) return headers;
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

/** pino's number for the `info` level, which request lines are written at. */
const INFO = 30;

/** One line per completed request: what app.ts's hook and the page replay log. */
export interface RequestLog {
  completed(requestId: string, request: LoggedRequest, statusCode: number, responseTime: number): void;
}

/**
 * Structured request logs: one JSON line per request when it completes, with its headers (the secret
 * ones censored), status and time. The line is the one pino would write for
 * `log.info({ reqId, req, res, responseTime }, 'request completed')`, field for field, but built by
 * one `JSON.stringify` of its request part: pino's generic path (a serializer, then a stringify per
 * field) took about 9 µs of a cached book page's CPU a line, this takes about 6 (bench/README).
 * Response headers, and so the cookies the service sets, never reach a log: a line
 * records the status code alone. Null when the level leaves `info` out.
 */
export function requestLog(stream: LogStream, level: string): RequestLog | null {
  const value = levels.values[level];
  if (level === 'silent' || (value !== undefined && value > INFO)) return null;
  const head = `{"level":${INFO},"time":`;
  const bindings = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  return {
    completed(requestId, request, statusCode, responseTime) {
      const req = JSON.stringify({
        method: request.method,
        url: request.url,
        host: request.host,
        remoteAddress: request.ip,
        headers: loggedHeaders(request.headers),
      });
      stream.write(
        `${head}${Date.now()}${bindings},"reqId":${JSON.stringify(requestId)},"req":${req},` +
          `"res":{"statusCode":${statusCode}},"responseTime":${JSON.stringify(responseTime)},` +
          `"msg":"request completed"}\n`,
      );
    },
  };
}

/** The service's other logs (startup, errors, shutdown): pino through Fastify, to the same stream. */
export function logOptions(level: string, stream: LogStream) {
  return { level, stream };
}
