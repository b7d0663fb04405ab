/**
 * The two yardsticks of bench/http/api.ts, each run in its own process:
 *   bare <search.json> <resolve.json> <port>   plain node:http answering captured JSON bodies, no database
 *   fastify <port>                             a minimal Fastify app calling the same services on the same
 *                                              database (env: DATABASE_URL, BASE_URL…), with the operator's
 *                                              request logs but no schemas, rate limiter, API keys, metrics,
 *                                              usage records, guards or error hooks
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [mode, ...rest] = process.argv.slice(2);

async function bare(searchFile: string, resolveFile: string, port: number): Promise<void> {
  const bodies = { search: readFileSync(searchFile), resolve: readFileSync(resolveFile) };
  const server = createServer((request, response) => {
    const body = request.url?.startsWith('/api/v1/search') ? bodies.search : bodies.resolve;
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
    });
    response.end(body);
  });
  server.listen(port, '127.0.0.1');
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  });
}

async function minimalFastify(port: number): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const { loadConfig } = await import('../../src/config.js');
  const { createServices } = await import('../../src/services/container.js');
  const { openStore } = await import('../../src/store/db.js');
  const { bufferedStdout, logOptions, requestLog } = await import('../../src/http/request-log.js');
  const { isAutomatedClient } = await import('../../src/http/plugins/guards.js');
  const { presentResolve } = await import('../../src/http/presenters/resolve.js');

  const config = loadConfig();
  const store = openStore(config.databaseUrl);
  const services = createServices(config, store);
  const base = config.baseUrl;
  // The operator's request log: one line per request, to a buffered stdout, as app.ts writes it.
  const stream = bufferedStdout();
  const app = Fastify({ logger: logOptions(config.logLevel, stream), disableRequestLogging: true });
  const requests = requestLog(stream, config.logLevel);
  if (requests) {
    app.addHook('onResponse', (request, reply, done) => {
      requests.completed(request.id, request, reply.statusCode, reply.elapsedTime);
      done();
    });
  }
  type Query = Record<string, string | undefined>;

  // The handlers of src/http/routes/api-resolve.ts and api-search.ts, minus everything around them.
  app.get('/api/v1/resolve', async (request) => {
    const query = request.query as Query;
    const mayCreate = !isAutomatedClient(request.headers['user-agent']);
    return presentResolve(await services.resolver.resolveUrl(query.url ?? '', mayCreate), base);
  });
  app.get('/api/v1/search', async (request) => {
    const query = request.query as Query;
    const text = (query.q ?? '').trim();
    const outcome = await services.search.search(text, Number(query.limit ?? 5));
    await services.search.log(outcome, 'api', query.source ?? null);
    const results = outcome.results.map((result, i) => ({
      title: result.record.title,
      authors: result.record.authors,
      cover_url: result.record.coverUrl,
      isbn: result.record.isbn13,
      published_date: result.record.publishedDate,
      search_url: `${base}/search?${new URLSearchParams({ q: text, pick: String(i + 1) })}`,
    }));
    return { status: results.length > 0 ? 'found' : 'not_found', results };
  });
  app.get('/healthz', async () => ({ status: 'ok' }));

  await app.listen({ port, host: '127.0.0.1' });
  process.once('SIGTERM', () => {
    app
      .close()
      .then(() => services.close())
      .then(() => store.close())
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      });
  });
}

if (mode === 'bare' && rest.length === 3) await bare(rest[0] ?? '', rest[1] ?? '', Number(rest[2]));
else if (mode === 'fastify' && rest.length === 1) await minimalFastify(Number(rest[0]));
else {
  console.error('usage: api-reference-servers.ts bare <search.json> <resolve.json> <port> | fastify <port>');
  process.exit(2);
}
