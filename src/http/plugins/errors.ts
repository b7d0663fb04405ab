import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isDatabaseUnavailable } from '../../store/errors.js';
import { HttpError, type ValidationIssue, ValidationProblem } from '../errors.js';
import { storableIssues, validationIssues } from '../validation.js';
import { renderErrorPage } from '../views/error-page.js';

/** What in a raw URL can decode to a NUL or to a number beyond a 32-bit integer (the HTTP parser refuses a raw NUL). */
const UNSTORABLE_IN_URL = /%00|\d{10}|\d[eE]|%3\d/;

const DATABASE_RETRY_AFTER_SECONDS = '5';

interface ErrorsOptions {
  baseUrl: string;
}

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request too large',
  415: 'Unsupported media type',
  422: 'Invalid request',
  429: 'Too many requests',
  500: 'Something went wrong',
  503: 'Service unavailable',
};

export function wantsJson(request: FastifyRequest): boolean {
  return request.url.startsWith('/api/') || request.url === '/openapi.json';
}

function sendValidation(reply: FastifyReply, issues: ValidationIssue[]) {
  return reply.code(422).type('application/json; charset=utf-8').send({ detail: issues });
}

/**
 * The one error handler. 422 always carries SPEC 7's body; other errors answer JSON `{detail}` under
 * /api/ and an HTML page elsewhere; 5xx never leak internals.
 */
async function errorsPlugin(app: FastifyInstance, options: ErrorsOptions) {
  const page = (request: FastifyRequest, reply: FastifyReply, status: number, message: string) => {
    if (wantsJson(request)) return reply.code(status).send({ detail: message });
    const title = TITLES[status] ?? 'Error';
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(renderErrorPage({ status, title, message, baseUrl: options.baseUrl }));
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
      return sendValidation(
        reply,
        validationIssues(error.validation, context, data[context as keyof typeof data]),
      );
    }
    if (error instanceof ValidationProblem) return sendValidation(reply, error.issues);
    if (error instanceof HttpError) {
      if (error.report) request.log.error({ err: error }, error.message);
      return page(request, reply, error.status, error.message);
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
      return sendValidation(reply, [
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

  app.addHook('preHandler', async (request) => {
    // Path and query values come from the URL: only a NUL, a long or exponent number or a percent-encoded digit in it can make
    // them unstorable, so the common URL skips the walk (it runs on every request).
    const fromUrl = UNSTORABLE_IN_URL.test(request.url)
      ? [...storableIssues('path', request.params), ...storableIssues('query', request.query)]
      : [];
    const issues =
      request.body === undefined ? fromUrl : [...fromUrl, ...storableIssues('body', request.body)];
    if (issues.length > 0) throw new ValidationProblem(issues);
  });

  app.setNotFoundHandler((request, reply) => page(request, reply, 404, 'There is nothing at this address.'));
}

export default fp(errorsPlugin, { name: 'booklink-errors' });
