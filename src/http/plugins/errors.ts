import { type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { readCookie } from '../../domain/cookies.js';
import { LANGUAGE_COOKIE, negotiateLanguage, type ReaderLanguage } from '../../domain/reader-languages.js';
import type { Brand } from '../../services/brand.js';
import { isDatabaseUnavailable } from '../../services/container.js';
import { HttpError, type ValidationIssue, ValidationProblem } from '../errors.js';
import { inLanguage, t } from '../i18n/context.js';
import { pageHeaders, responseHeaders, servedOverHttps } from '../security-headers.js';
import { locationOf, storableIssues, validationIssues } from '../validation.js';
import { renderBadIsbnPage, renderErrorPage } from '../views/error-page.js';
import { routedPath } from './api-keys.js';

/** What in a raw URL can decode to a NUL or to a number beyond a 32-bit integer (the HTTP parser refuses a raw NUL). */
const UNSTORABLE_IN_URL = /%00|\d{10}|\d[eE]|%3\d/;

const DATABASE_RETRY_AFTER_SECONDS = '5';

interface ErrorsOptions {
  baseUrl: string;
  /** The operator's brand for error pages (the last one read: an error page never waits). */
  brand?: () => Brand;
}

/** An error code whose page says more than its status's default, in the reader's language. */
function pageMessage(error: HttpError | undefined): string | undefined {
  if (error?.code === 'book_not_found') return t('error.bookNotFound');
  if (error?.code === 'sources_busy')
    return t('error.sourcesBusy', { isbn: String(error.values.isbn ?? '') });
  if (error?.code === 'write_limited') {
    const seconds = Number(error.values.seconds ?? 60);
    const [unit, count] =
      seconds < 120
        ? (['second', seconds] as const)
        : seconds < 7200
          ? (['minute', Math.ceil(seconds / 60)] as const)
          : (['hour', Math.ceil(seconds / 3600)] as const);
    return t('error.writeLimited', { what: String(error.values.kind ?? ''), unit, count });
  }
  return undefined;
}

/** The q-value the Accept header gives the first of `types` it names; null when it names none. */
function acceptQuality(accept: string, types: readonly string[]): { q: number; at: number } | null {
  let found: { q: number; at: number } | null = null;
  accept.split(',').forEach((entry, at) => {
    const [type = '', ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    if (!types.includes(type)) return;
    const q = Number(params.find((param) => param.startsWith('q='))?.slice(2) ?? 1);
    const quality = Number.isFinite(q) ? q : 0;
    if (!found || quality > found.q) found = { q: quality, at };
  });
  return found;
}

/** What the client's Accept prefers of HTML and JSON; null when it names neither (a wildcard, no header). */
function acceptedFormat(request: FastifyRequest): 'html' | 'json' | null {
  const accept = request.headers.accept ?? '';
  const html = acceptQuality(accept, ['text/html', 'application/xhtml+xml']);
  const json = acceptQuality(accept, ['application/json', 'application/problem+json']);
  if (html && html.q > 0 && (!json || html.q > json.q || (html.q === json.q && html.at < json.at)))
    return 'html';
  return json && json.q > 0 ? 'json' : null;
}

/** JSON under /api/ and for /openapi.json, whatever the Accept; elsewhere unless the client asks for HTML. */
function isJsonRoute(request: FastifyRequest): boolean {
  const path = routedPath(request);
  return path.startsWith('/api/') || path === '/openapi.json';
}

/** Errors other than 422: JSON on the API and to a client that asks for JSON, else an HTML page. */
export function wantsJson(request: FastifyRequest): boolean {
  return isJsonRoute(request) || acceptedFormat(request) === 'json';
}

/**
 * A 422 is SPEC 7's JSON body, except to a client that asks for HTML before JSON (a browser) on a
 * page route: it gets a page saying what was wrong, with the same entries inside it as JSON.
 */
function wantsValidationPage(request: FastifyRequest): boolean {
  return !isJsonRoute(request) && acceptedFormat(request) === 'html';
}

/**
 * The one error handler. 422 always carries SPEC 7's body; other errors answer JSON `{detail}` under
 * /api/ and an HTML page elsewhere; 5xx never leak internals.
 */
async function errorsPlugin(app: FastifyInstance, options: ErrorsOptions) {
  const sendValidation = (request: FastifyRequest, reply: FastifyReply, issues: ValidationIssue[]) => {
    if (!wantsValidationPage(request)) {
      return reply.code(422).type('application/json; charset=utf-8').send({ detail: issues });
    }
    const query = request.query as Record<string, unknown> | undefined;
    const params = request.params as Record<string, unknown> | undefined;
    const typed = query?.q ?? params?.isbn;
    const searchQuery = typeof typed === 'string' ? typed.slice(0, 500) : undefined;
    const brand = options.brand?.();
    // Rendered here, outside the handler (a body that failed to parse left the request's language).
    const body = inLanguage(
      request.language,
      () =>
        request.routeOptions.url === '/isbn/:isbn'
          ? renderBadIsbnPage(searchQuery ?? '', options.baseUrl, issues, brand)
          : renderErrorPage({ status: 422, baseUrl: options.baseUrl, brand, problems: issues, searchQuery }),
      request.url,
    );
    return reply.code(422).type('text/html; charset=utf-8').send(body);
  };
  const page = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    message: string,
    error?: HttpError,
  ) => {
    if (wantsJson(request)) return reply.code(status).send({ detail: message });
    // The page's words come from the catalogue: the English `message` is the JSON answer's.
    const body = inLanguage(
      request.language,
      () =>
        renderErrorPage({
          status,
          message: pageMessage(error),
          baseUrl: options.baseUrl,
          brand: options.brand?.(),
        }),
      request.url,
    );
    return reply.code(status).type('text/html; charset=utf-8').send(body);
  };

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const data = {
        querystring: request.query,
        body: request.body,
        params: request.params,
        headers: request.headers,
      };
      const context = error.validationContext ?? 'body';
      const value = data[context as keyof typeof data];
      const issues = validationIssues(error.validation, context, value);
      // A NUL elsewhere in the same input is reported with the schema's problems, not on the next try.
      const seen = new Set(issues.map((issue) => JSON.stringify(issue.loc)));
      const unstorable = storableIssues(locationOf(context), value);
      return sendValidation(request, reply, [
        ...issues,
        ...unstorable.filter((issue) => !seen.has(JSON.stringify(issue.loc))),
      ]);
    }
    if (error instanceof ValidationProblem) return sendValidation(request, reply, error.issues);
    if (error instanceof HttpError) {
      if (error.report) request.log.error({ err: error }, error.message);
      return page(request, reply, error.status, error.message, error);
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return sendValidation(request, reply, [
        { type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error', ctx: { error: 'Invalid JSON' } },
      ]);
    }
    if (isDatabaseUnavailable(error)) {
      // The database is down, restarting or cut this request's connection: say so and when to retry.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', DATABASE_RETRY_AFTER_SECONDS);
      return page(
        request,
        reply,
        503,
        'The service is briefly unavailable. Please try again in a few seconds.',
      );
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return page(request, reply, 500, 'An unexpected error occurred. It has been logged.');
    }
    return page(request, reply, status, error.message);
  });

  // A callback hook: it runs on every request and has nothing to wait for.
  app.addHook('preHandler', (request, _reply, done) => {
    // Path and query values come from the URL: only a NUL, a long or exponent number or a percent-encoded digit in it can make
    // them unstorable, so the common URL skips the walk (it runs on every request).
    const fromUrl = UNSTORABLE_IN_URL.test(request.url)
      ? [...storableIssues('path', request.params), ...storableIssues('query', request.query)]
      : [];
    const issues =
      request.body === undefined ? fromUrl : [...fromUrl, ...storableIssues('body', request.body)];
    done(issues.length > 0 ? new ValidationProblem(issues) : undefined);
  });

  app.setNotFoundHandler((request, reply) => page(request, reply, 404, 'There is nothing at this address.'));
}

/**
 * The language of a request refused before Fastify's hooks ran: `?lang=` of the target, the
 * switcher's cookie, then Accept-Language, as for every page; the operator's default without them.
 */
export function refusedRequestLanguage(
  target: string,
  headers: { cookie?: string | undefined; acceptLanguage?: string | undefined },
  fallback: ReaderLanguage,
): ReaderLanguage {
  const search = target.includes('?') ? target.slice(target.indexOf('?') + 1) : '';
  let lang: string | null = null;
  try {
    lang = new URLSearchParams(search).get('lang');
  } catch {
    lang = null;
  }
  return negotiateLanguage({
    query: lang,
    cookie: readCookie(headers.cookie, LANGUAGE_COOKIE),
    acceptLanguage: headers.acceptLanguage,
    fallback,
  });
}

/** One header's value in a raw request head (latin1 text), or undefined. */
function rawHeader(head: string, name: string): string | undefined {
  const match = new RegExp(`\\r\\n${name}:[ \\t]*([^\\r\\n]*)`, 'i').exec(head);
  return match?.[1]?.trim();
}

/**
 * Fastify's `frameworkErrors`: a target that does not decode (`/book/%E0%A4%A`) is refused before
 * routing, outside the error handler; it answers in the same format, a page in the reader's language.
 */
export function frameworkErrorResponder(baseUrl: string, defaultLanguage: () => ReaderLanguage) {
  const always = responseHeaders(servedOverHttps(baseUrl));
  return (_error: Error, request: FastifyRequest, reply: FastifyReply): void => {
    // Refused before routing, so before the hooks that add these to every other answer.
    for (const [name, value] of always) reply.header(name, value);
    if (wantsJson(request)) {
      reply.code(400).send({ detail: 'The address is not valid: part of it does not decode.' });
      return;
    }
    const cookie = request.headers.cookie;
    const acceptLanguage = request.headers['accept-language'];
    const language = refusedRequestLanguage(
      request.raw.url ?? '',
      { cookie, acceptLanguage: Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : acceptLanguage },
      defaultLanguage(),
    );
    for (const [name, value] of pageHeaders()) reply.header(name, value);
    reply
      .code(400)
      .type('text/html; charset=utf-8')
      .header('content-language', language)
      .send(
        inLanguage(language, () =>
          renderErrorPage({ status: 400, message: t('error.undecodable.message'), baseUrl }),
        ),
      );
  };
}

/** A request line longer than this in a header overflow is a URI too long (414), not big headers (431). */
const LONG_REQUEST_LINE = 8 * 1024;

/** How long a refused request's answer may take to leave before its connection is cut. */
const CLOSE_AFTER_REFUSAL_MS = 1000;

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any route runs (a malformed
 * request, a URI too long, headers too large) answers like every other error: JSON `{detail}` when
 * the request line names an /api/ path, an HTML page in the site's layout otherwise.
 */
export function clientErrorResponder(baseUrl: string, defaultLanguage: () => ReaderLanguage) {
  const always = responseHeaders(servedOverHttps(baseUrl));
  return (error: ConnectionError, socket: Socket): void => {
    // The client hung up, or an answer is already being written on this connection: nothing to say.
    const answering = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    // Typed as a JSON-ified buffer, handed over as the Buffer it is.
    const packet: unknown = error.rawPacket;
    const head = Buffer.isBuffer(packet) ? packet.toString('latin1', 0, 64 * 1024) : '';
    const lineEnd = head.indexOf('\r\n');
    const line = lineEnd === -1 ? head : head.slice(0, lineEnd);
    let status = 400;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') status = 408;
    else if (error.code === 'HPE_HEADER_OVERFLOW')
      status = lineEnd === -1 || line.length > LONG_REQUEST_LINE ? 414 : 431;
    const target = line.split(' ')[1] ?? '';
    const api = /^(https?:\/\/[^/]*)?\/api\//i.test(target);
    const message = {
      400: 'The request is malformed.',
      408: 'The request took too long to arrive.',
      414: 'The address is too long.',
      431: 'The request headers are too large.',
    }[status];
    // A page in the reader's language, as far as the head that did arrive tells it.
    const language = api
      ? null
      : refusedRequestLanguage(
          target,
          { cookie: rawHeader(head, 'cookie'), acceptLanguage: rawHeader(head, 'accept-language') },
          defaultLanguage(),
        );
    const body = language
      ? inLanguage(language, () =>
          renderErrorPage({
            status,
            ...(status === 400 ? { message: t('error.malformed.message') } : {}),
            baseUrl,
          }),
        )
      : JSON.stringify({ detail: message });
    const type = api ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8';
    const headers = language
      ? [...always, ...pageHeaders(), ['Content-Language', language] as const]
      : always;
    // The connection is closed once the answer is out, or a second later for a client that reads
    // nothing: a stalled request must not keep its socket.
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        `Content-Type: ${type}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...headers.map(([name, value]) => `${name}: ${value}`),
        'Cache-Control: no-store',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
      () => socket.destroy(),
    );
    setTimeout(() => socket.destroy(), CLOSE_AFTER_REFUSAL_MS).unref();
  };
}

export default fp(errorsPlugin, { name: 'booklink-errors' });
