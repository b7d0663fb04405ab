import { Type } from 'typebox';
import type { PublicRoutes } from '../public-routes.js';

const Health = Type.Object({
  status: Type.String(),
  checks: Type.Optional(Type.Record(Type.String(), Type.String())),
});

/** Liveness, readiness and robots.txt: what load balancers and crawlers ask first. */
export const operationsRoutes: PublicRoutes = async (app, { services }) => {
  app.get(
    '/healthz',
    { schema: { summary: 'The process is up', tags: ['operations'], response: { 200: Health } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary:
          'The database answers (503 otherwise); a database refusing writes, and Redis when configured, are reported but only degrade (200)',
        tags: ['operations'],
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      const checks: Record<string, string> = {};
      try {
        await services.pingDatabase();
        checks.database = 'ok';
      } catch (error) {
        checks.database = `failed: ${error instanceof Error ? error.message : 'unknown'}`;
      }
      // Reads go on when writes are refused (a full disk): book pages and search still serve, so the
      // instance stays in the pool, but says so.
      if (checks.database === 'ok') {
        checks.database_writes = await services.checkDatabaseWrites().then(
          () => 'ok',
          (error: unknown) => `failed: ${error instanceof Error ? error.message : 'unknown'}`,
        );
      }
      for (const [name, check] of Object.entries(services.readiness)) {
        checks[name] = await check().then(
          () => 'ok',
          (error: unknown) => `failed: ${error instanceof Error ? error.message : 'unknown'}`,
        );
      }
      // Only the database makes the instance unable to serve; the API works without Redis (each
      // process counts alone), so a load balancer must not pull every instance when Redis fails.
      const ready = checks.database === 'ok';
      const complete = Object.values(checks).every((value) => value === 'ok');
      const status = !ready ? 'unavailable' : complete ? 'ok' : 'degraded';
      return reply.code(ready ? 200 : 503).send({ status, checks });
    },
  );

  // SPEC 8: redirect and API paths must not be crawled; book pages may.
  const robots = [
    'User-agent: *',
    'Disallow: /search',
    'Disallow: /isbn/',
    'Disallow: /resolve',
    'Disallow: /go/',
    'Disallow: /api/',
    'Disallow: /admin',
    'Allow: /book/',
    'Allow: /b/',
    '',
    `Sitemap: ${services.config.baseUrl}/sitemap.xml`,
    '',
  ].join('\n');
  app.get(
    '/robots.txt',
    { schema: { summary: 'Crawling rules', tags: ['discovery'], response: { 200: Type.String() } } },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(robots),
  );
};
