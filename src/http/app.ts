import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Services } from '../services/container.js';
import errors from './plugins/errors.js';
import guards from './plugins/guards.js';
import openapi from './plugins/openapi.js';
import { coverFallbackRoutes } from './routes/api-cover.js';
import { apiSearchRoutes } from './routes/api-search.js';
import { bookPageRoutes } from './routes/book-pages.js';
import { goRoutes } from './routes/go.js';
import { isbnRoutes } from './routes/isbn.js';
import { operationsRoutes } from './routes/operations.js';
import { searchFeedbackRoutes } from './routes/search-feedback.js';
import { searchPageRoutes } from './routes/search-page.js';
import { staticRoutes } from './routes/static.js';

export interface AppOptions {
  services: Services;
  logger?: boolean;
}

/** Builds the whole application as a Fastify instance; `server.ts` only listens and shuts down. */
export async function buildApp({ services, logger = false }: AppOptions): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    logger: logger
      ? { level: config.logLevel, redact: ['req.headers.cookie', 'req.headers["x-api-key"]'] }
      : false,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false } },
    routerOptions: { maxParamLength: 2100 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(errors, { baseUrl: config.baseUrl });
  await app.register(guards, { baseUrl: config.baseUrl });
  await app.register(openapi, { baseUrl: config.baseUrl, contactEmail: config.contactEmail });
  await app.register(operationsRoutes, { services });
  await app.register(staticRoutes);
  await app.register(isbnRoutes, { services });
  await app.register(bookPageRoutes, { services });
  await app.register(goRoutes, { services });
  await app.register(coverFallbackRoutes, { services });
  await app.register(searchPageRoutes, { services });
  await app.register(apiSearchRoutes, { services });
  await app.register(searchFeedbackRoutes, { services });
  return app;
}
