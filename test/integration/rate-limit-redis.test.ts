import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services/container.js';
import { createRedis, type Redis, redisReachable } from '../../src/services/redis.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { HUMAN_UA } from '../support/app.js';
import {
  createTestDatabase,
  postgresAvailable,
  REQUIRE_ALL,
  type TestDatabase,
} from '../support/databases.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

interface Instance {
  get(headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/** One instance as production runs it: its own connection pool and its own Redis client. */
async function startInstance(databaseUrl: string, redis: Redis | null): Promise<Instance> {
  const store: Store = openStore(databaseUrl);
  const config = loadConfig({
    BASE_URL: 'http://booklink.test',
    DATABASE_URL: databaseUrl,
    PROVIDERS: 'local',
    TRUST_PROXY: 'true',
  });
  const services: Services = createServices(config, store, { remote: null, textSearch: null, redis });
  const app: FastifyInstance = await buildApp({ services });
  app.get('/api/v1/test/ping', async () => ({ ok: true }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    get: (headers = {}) =>
      fetch(`${address}/api/v1/test/ping`, { headers: { 'user-agent': HUMAN_UA, ...headers } }),
    close: async () => {
      await app.close();
      await services.close();
      await store.close();
    },
  };
}

/** `count` requests spread over the instances in turn, all in flight at once. */
function spread(instances: Instance[], count: number, headers: Record<string, string> = {}) {
  return Promise.all(Array.from({ length: count }, (_, i) => instances[i % instances.length]!.get(headers)));
}

const ok = (responses: Response[]) => responses.filter((response) => response.status === 200).length;

describe('rate limits shared by two instances through Redis, on one PostgreSQL database', async () => {
  const missing = [
    !(await redisReachable(REDIS_URL)) && `Redis is not reachable at ${REDIS_URL}`,
    !(await postgresAvailable()) && 'PostgreSQL is not reachable',
  ].filter(Boolean);
  if (missing.length > 0) {
    const message = `${missing.join('; ')}: SKIPPING the two-instance rate-limit tests`;
    if (REQUIRE_ALL) throw new Error(message);
    console.warn(`\n!!! ${message}\n`);
    return;
  }

  // A prefix of this run's own: parallel test files and earlier runs never share counters with it.
  const keyPrefix = `booklink-test:${process.pid}:${randomBytes(4).toString('hex')}:`;
  const clients: Redis[] = [];
  let database: TestDatabase;
  let setup: Store;
  let instances: Instance[] = [];
  before(async () => {
    database = await createTestDatabase('postgres');
    setup = openStore(database.url);
    await migrateToLatest(setup);
    for (let i = 0; i < 2; i++) {
      const client = createRedis(REDIS_URL, { keyPrefix });
      await client.ping();
      clients.push(client);
    }
    instances = await Promise.all(clients.map((client) => startInstance(database.url, client)));
  });
  after(async () => {
    for (const instance of instances) await instance.close();
    const keys = clients[0] ? await clients[0].keys('*') : [];
    // keys() answers with the prefix included; del() adds it again, so strip it.
    if (keys.length > 0) await clients[0]?.del(...keys.map((key) => key.slice(keyPrefix.length)));
    for (const client of clients) client.disconnect();
    await setup.close();
    await database.drop();
  });

  it('gives a client exactly 20 anonymous requests a minute across both instances', async () => {
    const client = { 'x-forwarded-for': '192.0.2.1' };
    const responses = await spread(instances, 50, client);
    assert.equal(ok(responses), 20);
    const refused = responses.find((response) => response.status === 429);
    assert.ok(Number(refused?.headers.get('retry-after')) >= 1);
    // Sequentially too: each instance sees the other's count.
    assert.equal((await instances[0]!.get(client)).status, 429);
    assert.equal((await instances[1]!.get(client)).status, 429);
  });

  it('gives a key exactly 120 requests a minute across both instances', async () => {
    const { key } = await createApiKey(setup.db, { name: 'two instances', scopes: [] });
    const responses = await spread(instances, 150, { 'x-api-key': key });
    assert.equal(ok(responses), 120);
    assert.equal(responses.filter((response) => response.status === 429).length, 30);
    const remaining = responses
      .filter((response) => response.status === 200)
      .map((response) => Number(response.headers.get('x-ratelimit-remaining')))
      .sort((a, b) => a - b);
    assert.deepEqual(
      remaining,
      Array.from({ length: 120 }, (_, i) => i),
      'every count seen exactly once',
    );
  });

  it('without Redis each instance counts alone, which is why several instances need it', async () => {
    const alone = await Promise.all([startInstance(database.url, null), startInstance(database.url, null)]);
    try {
      const responses = await spread(alone, 60, { 'x-forwarded-for': '192.0.2.2' });
      assert.equal(ok(responses), 40);
      // One instance on its own is exact.
      const single = await spread([alone[0]!], 30, { 'x-forwarded-for': '192.0.2.3' });
      assert.equal(ok(single), 20);
    } finally {
      for (const instance of alone) await instance.close();
    }
  });
});
