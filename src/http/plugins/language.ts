import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { readCookie } from '../../domain/cookies.js';
import { LANGUAGE_COOKIE, negotiateLanguage, type ReaderLanguage } from '../../domain/reader-languages.js';
import { inLanguage } from '../i18n/context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The reader's language: `?lang=` → the switcher's cookie → Accept-Language → DEFAULT_LANGUAGE. */
    language: ReaderLanguage;
  }
}

interface LanguageOptions {
  /** The operator's default (the admin area's, else DEFAULT_LANGUAGE), asked per request. */
  fallback: () => ReaderLanguage;
}

/** The Vary an HTML page needs: its text follows Accept-Language and the language cookie. */
export function varyForLanguage(current: unknown): string {
  const text = typeof current === 'string' ? current : Array.isArray(current) ? current.join(', ') : '';
  const names = text
    .toLowerCase()
    .split(',')
    .map((name) => name.trim());
  const missing = ['Accept-Language', 'Cookie'].filter((name) => !names.includes(name.toLowerCase()));
  return [text, ...missing].filter(Boolean).join(', ');
}

/**
 * Chooses each request's language and renders its handler inside it (i18n/context.ts). Entered on
 * request and again before the handler: a request body is parsed outside the first. Every HTML
 * answer says its language (`Content-Language`) and that it varies with the reader's.
 */
async function languagePlugin(app: FastifyInstance, options: LanguageOptions) {
  app.decorateRequest('language', options.fallback());
  app.addHook('onRequest', (request, _reply, done) => {
    const query = request.query as { lang?: unknown } | undefined;
    request.language = negotiateLanguage({
      query: typeof query?.lang === 'string' ? query.lang : null,
      cookie: readCookie(request.headers.cookie, LANGUAGE_COOKIE),
      acceptLanguage: request.headers['accept-language'],
      fallback: options.fallback(),
    });
    inLanguage(request.language, done, request.url);
  });
  app.addHook('preHandler', (request, _reply, done) => inLanguage(request.language, done, request.url));
  app.addHook('onSend', (request, reply, payload, done) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html') && !request.url.startsWith('/admin')) {
      reply.header('content-language', request.language);
      reply.header('vary', varyForLanguage(reply.getHeader('vary')));
    }
    done(null, payload);
  });
}

export default fp(languagePlugin, { name: 'booklink-language' });
