import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

interface OpenApiOptions {
  baseUrl: string;
  contactEmail: string | null;
}

/** SPEC 9: the schema document is generated from the route schemas, OpenAPI 3.1.0, version 1.84.0. */
export const API_VERSION = '1.84.0';

async function openApiPlugin(app: FastifyInstance, options: OpenApiOptions) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Booklink',
        version: API_VERSION,
        description:
          'One stable link per book listing every place to get it. The JSON API lives under /api/v1; see /developers.md.',
        ...(options.contactEmail ? { contact: { email: options.contactEmail } } : {}),
      },
      servers: [{ url: options.baseUrl }],
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
      },
    },
    hideUntagged: false,
  });
  // Served from the package's own assets: no CDN.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true, uiConfig: { deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

export default fp(openApiPlugin, { name: 'booklink-openapi' });
