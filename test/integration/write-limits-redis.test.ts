import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices } from '../../src/services/container.js';
import { createRedis, createRedisBreaker, type Redis, redisReachable } from '../../src/services/redis.js';
import { WRITE_KINDS, WriteLimits } from '../../src/services/write-limits.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { HUMAN_UA } from '../support/app.js';
import {
  createTestDatabase,
  postgresAvailable,
  REQUIRE_ALL,
  type TestDatabase,
} from '../support/databases.js';
import { startHungRedis } from '../support/hung-redis.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CAP = 5;

interface Instance {
  miss(ip: string, query: string): Promise<Response>;
  close(): Promise<void>;
}

/** One instance as production runs it: its own pool, its own Redis client (or none). */
async function startInstance(databaseUrl: string, redis: Redis | null): Promise<Instance> {
  const store: Store = openStore(databaseUrl);
  const config = loadConfig({
    BASE_URL: 'http://booklink.test',
    DATABASE_URL: databaseUrl,
    PROVIDERS: 'local',
    TRUST_PROXY: 'true',
    RATE_LIMIT_ANON: '100000',
    WRITE_LIMIT_MISSES: String(CAP),
  });
  const services = createServices(config, store, { remote: null, textSearch: null, redis });
  const app = await buildApp({ services });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    miss: (ip, query) =>
      fetch(`${address}/api/v1/search/miss`, {
        method: 'POST',
        headers: { 'user-agent': HUMAN_UA, 'x-forwarded-for': ip, 'content-type': 'application/json' },
        body: JSON.stringify({ query, result_count: 0 }),
      }),
    close: async () => {
      await app.close();
      await services.close();
      await store.close();
    },
  };
}

/** `count` distinct misses from `ip`, spread over the instances in turn, all in flight at once. */
async function spread(instances: Instance[], count: number, ip: string, query = (i: number) => `book ${i}`) {
  const responses = await Promise.all(
    Array.from({ length: count }, (_, i) => instances[i % instances.length]!.miss(ip, query(i))),
  );
  return responses.map((response) => response.status);
}

describe('write caps shared by two instances through Redis, on one PostgreSQL database', async () => {
  const missing = [
    !(await redisReachable(REDIS_URL)) && `Redis is not reachable at ${REDIS_URL}`,
    !(await postgresAvailable()) && 'PostgreSQL is not reachable',
  ].filter(Boolean);
  if (missing.length > 0) {
    const message = `${missing.join('; ')}: SKIPPING the two-instance write-cap tests`;
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

  const misses = async (query: string) => {
    const row = await setup.db
      .selectFrom('search_misses')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('query', 'like', `${query}%`)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };

  it('stores exactly the cap from one address across both instances, the rest refused', async () => {
    const statuses = await spread(instances, 30, '192.0.2.1', (i) => `shared ${i}`);
    assert.equal(statuses.filter((status) => status === 201).length, CAP);
    assert.equal(statuses.filter((status) => status === 429).length, 30 - CAP);
    assert.equal(await misses('shared'), CAP);
    // Another address is served by either instance.
    assert.equal((await instances[1]!.miss('192.0.2.99', 'shared other')).status, 201);
  });

  it('merges a repeat sent to the other instance', async () => {
    const statuses = await spread(instances, 6, '192.0.2.2', () => 'repeated title');
    assert.deepEqual(statuses, Array(6).fill(201));
    assert.equal(await misses('repeated title'), 1);
  });

  it('without Redis each instance counts alone, which is why several instances need it', async () => {
    const alone = await Promise.all([startInstance(database.url, null), startInstance(database.url, null)]);
    try {
      const statuses = await spread(alone, 20, '192.0.2.3', (i) => `alone ${i}`);
      assert.equal(statuses.filter((status) => status === 201).length, 2 * CAP);
      assert.equal(await misses('alone'), 2 * CAP);
    } finally {
      for (const instance of alone) await instance.close();
    }
  });
});

describe('write caps while Redis hangs or is down: each process counts alone, the caps hold', () => {
  const caps = Object.fromEntries(WRITE_KINDS.map((kind) => [kind, CAP])) as Record<
    (typeof WRITE_KINDS)[number],
    number
  >;
  const admitted = async (limits: WriteLimits, count: number) => {
    let n = 0;
    for (let i = 0; i < count; i++) {
      if ((await limits.admit('miss', 'ip:192.0.2.50', `report ${i}`)).kind === 'admitted') n += 1;
    }
    return n;
  };

  it('a Redis that accepts connections and never answers', async () => {
    const hung = await startHungRedis();
    const redis = createRedis(hung.url, { commandTimeoutMs: 50, onError: () => undefined });
    try {
      await new Promise<void>((resolve) => redis.once('ready', () => resolve()));
      const failures: string[] = [];
      const limits = new WriteLimits({
        caps,
        windowMs: 60_000,
        redis,
        breaker: createRedisBreaker(),
        onStoreFailure: (_error, message) => failures.push(message),
      });
      assert.equal(await admitted(limits, 12), CAP);
      assert.equal(failures.length, 1, 'told once per outage');
      assert.equal(limits.stats().countedLocally, 12);
    } finally {
      redis.disconnect();
      await hung.close();
    }
  });

  it('a Redis that is not reachable', async () => {
    const redis = createRedis('redis://127.0.0.1:1', { onError: () => undefined });
    try {
      const limits = new WriteLimits({ caps, windowMs: 60_000, redis, onStoreFailure: () => undefined });
      assert.equal(await admitted(limits, 12), CAP);
    } finally {
      redis.disconnect();
    }
  });
});
