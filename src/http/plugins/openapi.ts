import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

interface OpenApiOptions {
  baseUrl: string;
  contactEmail: string | null;
  /** The operator's name and contact, read per request (an admin may change them at any time). */
  brand?: () => Promise<{ siteName: string; contactEmail: string | null }>;
}

type OpenApiDocument = { info?: { contact?: unknown; [key: string]: unknown }; [key: string]: unknown };

/** The generated document with the operator's name as its title and their address as its contact. */
async function branded(document: OpenApiDocument, options: OpenApiOptions): Promise<OpenApiDocument> {
  if (!options.brand || !document.info) return document;
  const brand = await options.brand();
  const { contact: _contact, ...info } = document.info;
  return {
    ...document,
    info: {
      ...info,
      title: brand.siteName,
      ...(brand.contactEmail ? { contact: { email: brand.contactEmail } } : {}),
    },
  };
}

/** SPEC 9: the schema document is generated from the route schemas, OpenAPI 3.1.0, version 1.84.0. */
export const API_VERSION = '1.84.0';

/** SPEC 7: the body of every 422, one entry per problem. */
const VALIDATION_ERROR_SCHEMAS = {
  ValidationError: {
    type: 'object',
    required: ['loc', 'msg', 'type'],
    properties: {
      loc: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        description: 'Where the problem is: ["query","limit"], ["body","books",3,"isbn_13"]',
      },
      msg: { type: 'string' },
      type: {
        type: 'string',
        description: 'Machine-readable: missing, string_too_long, int_parsing, less_than_equal, …',
      },
      input: { description: 'The offending value, when there is one' },
      ctx: { type: 'object', description: 'The constraint, e.g. {"max_length":500}' },
    },
  },
  HTTPValidationError: {
    type: 'object',
    required: ['detail'],
    properties: { detail: { type: 'array', items: { $ref: '#/components/schemas/ValidationError' } } },
    example: {
      detail: [
        {
          type: 'less_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be less than or equal to 20',
          input: 50,
          ctx: { le: 20 },
        },
      ],
    },
  },
};

interface Response {
  content?: Record<string, { schema?: { type?: unknown; $ref?: string } }>;
}

const VALIDATION_RESPONSE: Response & { description: string } = {
  description: 'Validation error (SPEC 7)',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } },
};

interface Parameter {
  in: string;
  required?: boolean;
  schema?: { default?: unknown };
}
type Operations = Record<string, { responses?: Record<string, Response>; parameters?: Parameter[] }>;

/** What a page route really sends; a route schema can only say "a string". */
function textMediaType(path: string): string {
  if (path.endsWith('.txt')) return 'text/plain';
  if (path.endsWith('.md')) return 'text/markdown';
  if (path.endsWith('.xml')) return 'application/xml';
  return 'text/html';
}

/** Pages and text files declare `Type.String()`, which the generator would list as JSON. */
function withTextMediaTypes(path: string, responses: Record<string, Response>): void {
  if (path.startsWith('/api/')) return;
  for (const response of Object.values(responses)) {
    const json = response.content?.['application/json'];
    if (json?.schema?.type === 'string') response.content = { [textMediaType(path)]: json };
  }
}

/**
 * SPEC 4: every path also answers 422 with the validation-error body, so every operation documents it;
 * text and HTML responses are listed under their own media types.
 */
function withValidationErrors<T extends { paths?: unknown; components?: unknown }>(document: T): T {
  const paths = (document.paths ?? {}) as Record<string, Operations>;
  for (const [path, operations] of Object.entries(paths)) {
    for (const operation of Object.values(operations)) {
      withTextMediaTypes(path, operation.responses ?? {});
      // A parameter with a default (search's `limit`) may be left out.
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.schema?.default !== undefined) parameter.required = false;
      }
      operation.responses = { ...operation.responses, 422: VALIDATION_RESPONSE };
    }
  }
  const components = (document.components ?? {}) as { schemas?: Record<string, unknown> };
  return {
    ...document,
    components: { ...components, schemas: { ...components.schemas, ...VALIDATION_ERROR_SCHEMAS } },
  };
}

/** Swagger UI on a phone: nothing wider than the screen; long paths and tables wrap or scroll in place. */
const DOCS_CSS = `
.swagger-ui .topbar { display: none; }
.swagger-ui .wrapper { padding: 0 12px; box-sizing: border-box; }
.swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
.swagger-ui .opblock .opblock-summary-path { max-width: 100%; word-break: break-all; }
.swagger-ui .opblock-body, .swagger-ui .responses-inner, .swagger-ui .parameters-container { overflow-x: auto; }
.swagger-ui table { display: block; max-width: 100%; overflow-x: auto; }
.swagger-ui .model-box, .swagger-ui pre { max-width: 100%; overflow-x: auto; }
@media (max-width: 600px) {
  .swagger-ui .info { margin: 20px 0; }
  .swagger-ui .info .title { font-size: 28px; }
  .swagger-ui .scheme-container { padding: 12px 0; }
  .swagger-ui .opblock-tag { font-size: 18px; }
}
`;

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
    transformObject: (documentObject) =>
      'openapiObject' in documentObject
        ? withValidationErrors(documentObject.openapiObject)
        : documentObject.swaggerObject,
  });
  // Served from the package's own assets: no CDN.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { deepLinking: true },
    theme: { title: 'Booklink API reference', css: [{ filename: 'booklink.css', content: DOCS_CSS }] },
  });
  // Swagger UI's page has no viewport tag, so phones drew it at desktop width, zoomed out; and Swagger
  // UI reads the document from /docs/json, which must carry the same branded info as /openapi.json.
  // One callback hook: it runs on every response and touches only those two (an async hook made every
  // answer of the service wait for a promise of its own).
  app.addHook('onSend', (request, reply, payload, done) => {
    const url = request.url;
    if (typeof payload !== 'string' || !url.startsWith('/docs')) {
      done(null, payload);
      return;
    }
    if (url === '/docs/json' && options.brand) {
      branded(JSON.parse(payload) as OpenApiDocument, options).then(
        (document) => done(null, JSON.stringify(document)),
        (error: Error) => done(error),
      );
      return;
    }
    const page =
      (url === '/docs' || url === '/docs/') &&
      String(reply.getHeader('content-type') ?? '').startsWith('text/html');
    done(
      null,
      page
        ? payload.replace(
            '<meta charset="UTF-8">',
            '<meta charset="UTF-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">',
          )
        : payload,
    );
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () =>
    branded(app.swagger() as OpenApiDocument, options),
  );
}

export default fp(openApiPlugin, { name: 'booklink-openapi' });
