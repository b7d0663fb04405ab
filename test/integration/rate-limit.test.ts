import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type ServiceOverrides, type Services } from '../../src/services/container.js';
import { createRedis } from '../../src/services/redis.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { openStore } from '../../src/store/db.js';
import { HUMAN_UA } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';

interface ApiApp {
  services: Services;
  app: FastifyInstance;
  get(path: string, headers?: Record<string, string>, method?: string): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The real app plus one test-only API route, so the limits are tested apart from any endpoint's logic.
 * Each app opens its own connection pool, as a separate instance would, and closes it after itself.
 */
async function startApi(
  databaseUrl: string,
  env: Record<string, string> = {},
  overrides: ServiceOverrides = {},
) {
  const store = openStore(databaseUrl);
  const config = loadConfig({
    BASE_URL: 'http://booklink.test',
    DATABASE_URL: 'sqlite::memory:',
    PROVIDERS: 'local',
    ...env,
  });
  const services = createServices(config, store, { remote: null, textSearch: null, ...overrides });
  const app = await buildApp({ services });
  app.get('/api/v1/test/ping', async () => ({ ok: true }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const api: ApiApp = {
    services,
    app,
    get: (path, headers = {}, method = 'GET') =>
      fetch(`${address}${path}`, {
        method,
        redirect: 'manual',
        headers: { 'user-agent': HUMAN_UA, ...headers },
      }),
    close: async () => {
      await app.close();
      await services.close();
      await store.close();
    },
  };
  return api;
}

let nextIp = 1;
/** A fresh client address per test (the apps trust X-Forwarded-For), so tests never share a budget. */
const client = () => ({ 'x-forwarded-for': `198.51.100.${nextIp++}` });

async function burst(api: ApiApp, count: number, headers: Record<string, string>): Promise<Response[]> {
  return Promise.all(Array.from({ length: count }, () => api.get('/api/v1/test/ping', headers)));
}

const statuses = (responses: Response[]) => responses.map((response) => response.status);
const count = (responses: Response[], status: number) =>
  statuses(responses).filter((s) => s === status).length;

// Suites nest one level so their apps close before describeEachDialect drops the database.
describeEachDialect('rate limits on /api/', (context) =>
  describe('one instance, counters in memory', () => {
    let api: ApiApp;
    before(async () => {
      // The real defaults: no RATE_LIMIT_* variables.
      api = await startApi(context.url(), { TRUST_PROXY: 'true' });
    });
    after(() => api.close());

    it('allows exactly 20 anonymous requests a minute, then 429 with Retry-After and the headers', async () => {
      const headers = client();
      for (let i = 1; i <= 20; i++) {
        const response = await api.get('/api/v1/test/ping', headers);
        assert.equal(response.status, 200, `request ${i}`);
        assert.equal(response.headers.get('x-ratelimit-limit'), '20');
        assert.equal(response.headers.get('x-ratelimit-remaining'), String(20 - i));
        const reset = Number(response.headers.get('x-ratelimit-reset'));
        assert.ok(reset >= 1 && reset <= 60, `reset ${reset}`);
        assert.equal(response.headers.get('retry-after'), null);
      }
      const refused = await api.get('/api/v1/test/ping', headers);
      assert.equal(refused.status, 429);
      assert.match(refused.headers.get('content-type') ?? '', /application\/json/);
      const body = (await refused.json()) as { detail: string };
      assert.match(body.detail, /20 requests per minute/);
      const retryAfter = Number(refused.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `retry-after ${retryAfter}`);
      assert.equal(refused.headers.get('x-ratelimit-limit'), '20');
      assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(refused.headers.get('x-ratelimit-reset'), String(retryAfter));
      assert.match(refused.headers.get('access-control-expose-headers') ?? '', /Retry-After/);
    });

    it('is exact under a concurrent burst: 50 at once, 20 pass', async () => {
      const responses = await burst(api, 50, client());
      assert.equal(count(responses, 200), 20);
      assert.equal(count(responses, 429), 30);
    });

    it('allows exactly 120 a minute with an API key, whatever the client address', async () => {
      const { key } = await createApiKey(context.store().db, { name: 'limits', scopes: [] });
      const first = await burst(api, 60, { 'x-api-key': key, ...client() });
      const second = await burst(api, 61, { 'x-api-key': key, ...client() });
      assert.equal(count([...first, ...second], 200), 120);
      assert.equal(count([...first, ...second], 429), 1);
      const refused = second.find((response) => response.status === 429);
      assert.ok(refused);
      assert.equal(refused.headers.get('x-ratelimit-limit'), '120');
      assert.match(
        ((await refused.json()) as { detail: string }).detail,
        /120 requests per minute for this API key/,
      );
      // The key's budget is its own: the same address without the key still has the anonymous one.
      const headers = client();
      await burst(api, 5, { 'x-api-key': key, ...headers });
      assert.equal((await api.get('/api/v1/test/ping', headers)).status, 200);
    });

    it('shares one budget across every /api/ route, unknown ones included', async () => {
      const headers = client();
      await burst(api, 19, headers);
      const unknownRoute = await api.get('/api/v1/no-such-thing', headers);
      assert.equal(unknownRoute.status, 404);
      assert.equal(unknownRoute.headers.get('x-ratelimit-remaining'), '0');
      assert.equal((await api.get('/api/v1/test/ping', headers)).status, 429);
    });

    it('does not count CORS preflights, and never limits pages, health checks or /metrics', async () => {
      const headers = client();
      for (let i = 0; i < 30; i++) {
        const preflight = await api.get(
          '/api/v1/test/ping',
          { ...headers, origin: 'https://app.example', 'access-control-request-method': 'GET' },
          'OPTIONS',
        );
        assert.equal(preflight.status, 204);
      }
      const pages = await Promise.all(
        ['/healthz', '/robots.txt', '/metrics', '/isbn/9780000000002'].flatMap((path) =>
          Array.from({ length: 8 }, () => api.get(path, headers)),
        ),
      );
      assert.ok(pages.every((response) => response.status !== 429));
      assert.ok(pages.every((response) => response.headers.get('x-ratelimit-limit') === null));
      const first = await api.get('/api/v1/test/ping', headers);
      assert.equal(first.headers.get('x-ratelimit-remaining'), '19');
    });
  }),
);

describeEachDialect('rate limits: configuration', (context) =>
  describe('limits, proxies and a failing Redis', () => {
    const started: ApiApp[] = [];
    const start = async (env: Record<string, string>, overrides: ServiceOverrides = {}) => {
      const api = await startApi(context.url(), env, overrides);
      started.push(api);
      return api;
    };
    after(async () => {
      for (const api of started) await api.close();
    });

    it('takes its limits from RATE_LIMIT_ANON and RATE_LIMIT_KEYED', async () => {
      const api = await start({ RATE_LIMIT_ANON: '3', RATE_LIMIT_KEYED: '5' });
      const { key } = await createApiKey(context.store().db, { name: 'configured', scopes: [] });
      assert.deepEqual(statuses(await burst(api, 5, {})).sort(), [200, 200, 200, 429, 429]);
      // At once: the seven share one key lookup and are checked in the same tick.
      const keyed = await burst(api, 7, { 'x-api-key': key });
      assert.deepEqual(statuses(keyed).sort(), [200, 200, 200, 200, 200, 429, 429]);
    });

    it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
      const direct = await start({ RATE_LIMIT_ANON: '2' });
      await direct.get('/api/v1/test/ping', { 'x-forwarded-for': '203.0.113.1' });
      await direct.get('/api/v1/test/ping', { 'x-forwarded-for': '203.0.113.2' });
      const spoofed = await direct.get('/api/v1/test/ping', { 'x-forwarded-for': '203.0.113.3' });
      assert.equal(spoofed.status, 429, 'a forged header must not buy a fresh budget');

      const proxied = await start({ RATE_LIMIT_ANON: '2', TRUST_PROXY: 'true' });
      const a = { 'x-forwarded-for': '203.0.113.10, 10.0.0.1' };
      const b = { 'x-forwarded-for': '203.0.113.11, 10.0.0.1' };
      assert.deepEqual(statuses(await burst(proxied, 3, a)).sort(), [200, 200, 429]);
      assert.equal((await proxied.get('/api/v1/test/ping', b)).status, 200);
    });

    it('lets requests through when Redis is unreachable, and /readyz says so (degraded, still ready)', async () => {
      const redis = createRedis('redis://127.0.0.1:1', {
        keyPrefix: 'unreachable:',
        onError: () => undefined,
      });
      try {
        const api = await start({ RATE_LIMIT_ANON: '1' }, { redis });
        const responses = await burst(api, 3, {});
        assert.deepEqual(statuses(responses), [200, 200, 200]);
        const ready = await api.get('/readyz');
        // The API works without Redis: a load balancer must keep the instance (issue 11, item 7).
        assert.equal(ready.status, 200);
        const body = (await ready.json()) as { status: string; checks: Record<string, string> };
        assert.equal(body.status, 'degraded');
        assert.equal(body.checks.database, 'ok');
        assert.match(body.checks.redis ?? '', /^failed/);
      } finally {
        redis.disconnect();
      }
    });
  }),
);
