import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { redisReachable } from '../../src/services/redis.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { HUMAN_UA } from '../support/app.js';
import {
  createTestDatabase,
  postgresAvailable,
  REQUIRE_ALL,
  type TestDatabase,
} from '../support/databases.js';
import { inventedIsbn } from '../support/factories.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';
import {
  freePort,
  type Instance,
  nginxAvailable,
  type ReverseProxy,
  serverInstance,
  startNginx,
} from '../support/instances.js';

/**
 * Issue 43's "done when": three `booklink serve` processes on one PostgreSQL and one Redis behind
 * nginx, the search page, /resolve and /isbn/ hammered by eight workers from four addresses, and
 * the requests that reach each (fake) provider in any one-minute window stay within its budget
 * plus 5 %. Without the budget the same load sends thousands.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BUDGETS = { openlibrary: 60, googlebooks: 30, itunes: 20 } as const;
const PROVIDERS = Object.keys(BUDGETS) as (keyof typeof BUDGETS)[];
const MINUTE = 60_000;
const WORKERS = 8;
const REQUESTS_PER_WORKER = 45;
/** Public test addresses (RFC 5737): a private one would be taken for another proxy and skipped. */
const ADDRESSES = ['203.0.113.10', '203.0.113.20', '198.51.100.30', '198.51.100.40'];
const WORDS = [
  'amber',
  'basalt',
  'cinder',
  'delta',
  'ember',
  'fjord',
  'garnet',
  'harbor',
  'indigo',
  'juniper',
];

async function missing(): Promise<string | null> {
  if (!nginxAvailable()) return 'nginx is not installed (apt-get install nginx-light)';
  if (!(await postgresAvailable())) return 'PostgreSQL is not reachable';
  if (!(await redisReachable(REDIS_URL))) return `Redis is not reachable at ${REDIS_URL}`;
  return null;
}

/** Words no cache holds yet: every request is a new question for the providers. */
function words(n: number): string {
  return [WORDS[n % 10], WORDS[Math.floor(n / 10) % 10], WORDS[Math.floor(n / 100) % 10], `q${n}`].join(' ');
}

/** The n-th request of the load: a search page, a store link to resolve, or an ISBN page, in turn. */
function path(n: number): string {
  const kind = n % 3;
  if (kind === 0) return `/search?q=${encodeURIComponent(words(n))}`;
  if (kind === 1) {
    const slug = words(n).replaceAll(' ', '-');
    return `/resolve?url=${encodeURIComponent(`https://bookshop.org/p/books/${slug}-ada-lovelace/${1000 + n}`)}`;
  }
  return `/isbn/${inventedIsbn(n)}`;
}

/** Requests per one-minute window (aligned as the budget's are) from arrival times. */
function perWindow(times: readonly number[]): Map<number, number> {
  const windows = new Map<number, number>();
  for (const time of times) {
    const index = Math.floor(time / MINUTE);
    windows.set(index, (windows.get(index) ?? 0) + 1);
  }
  return windows;
}

describe('the provider budget across three instances behind nginx', async () => {
  const reason = await missing();
  if (reason) {
    const message = `${reason}: SKIPPING the multi-instance provider budget test`;
    if (REQUIRE_ALL) throw new Error(message);
    console.warn(`\n!!! ${message}\n`);
    return;
  }
  let database: TestDatabase;
  let store: Store;
  let fake: FakeProviders;
  let instances: Instance[] = [];
  let proxy: ReverseProxy;

  before(async () => {
    database = await createTestDatabase('postgres');
    store = openStore(database.url);
    await migrateToLatest(store);
    fake = await startFakeProviders();
    const env = {
      ...fake.env,
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_KEY_PREFIX: `bltest-budget-${process.pid}-${randomBytes(3).toString('hex')}:`,
      BASE_URL: 'http://booklink.test',
      PROVIDERS: 'local,openlibrary,googlebooks,itunes',
      TRUST_PROXY: 'true',
      CLICK_WAL_DIR: 'off',
      PROVIDER_BUDGET_OPENLIBRARY: `${BUDGETS.openlibrary}/min`,
      PROVIDER_BUDGET_GOOGLEBOOKS: `${BUDGETS.googlebooks}/min`,
      PROVIDER_BUDGET_ITUNES: `${BUDGETS.itunes}/min`,
      PROVIDER_BUDGET_ADDRESS_SHARE: '0.5',
      COOKIE_SECRET: randomBytes(32).toString('hex'),
    };
    const ports = [await freePort(), await freePort(), await freePort()];
    instances = ports.map((port) => serverInstance(env, port));
    await instances[0]?.start();
    await Promise.all(instances.slice(1).map((instance) => instance.start()));
    proxy = await startNginx(ports);
  });

  after(async () => {
    await proxy?.close();
    await Promise.all(instances.map((instance) => instance.stop()));
    await fake?.close();
    await store?.close();
    await database?.drop();
  });

  it('holds every provider within its budget plus 5 % while the search page, /resolve and /isbn/ are hammered', async () => {
    const statuses = new Map<string, number>();
    let next = 0;
    const worker = async (index: number) => {
      const address = ADDRESSES[index % ADDRESSES.length] ?? '203.0.113.10';
      for (let i = 0; i < REQUESTS_PER_WORKER; i++) {
        const target = path(next++);
        const response = await fetch(`${proxy.baseUrl}${target}`, {
          redirect: 'manual',
          headers: { 'user-agent': HUMAN_UA, 'x-forwarded-for': address },
        });
        await response.arrayBuffer();
        const key = `${target.split(/[/?]/)[1]} ${response.status}`;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i)));

    const report = PROVIDERS.map((provider) => {
      const windows = [...perWindow(fake.requestTimes(provider)).values()];
      return { provider, budget: BUDGETS[provider], windows, total: fake.requestCount(provider) };
    });
    console.log(
      `${WORKERS * REQUESTS_PER_WORKER} page requests (${[...statuses].map(([k, n]) => `${k}: ${n}`).join(', ')}); provider requests per minute window: ${report
        .map((r) => `${r.provider} ${r.windows.join('+')} (budget ${r.budget})`)
        .join(', ')}`,
    );
    for (const { provider, budget, windows } of report) {
      for (const count of windows)
        assert.ok(count <= budget * 1.05, `${provider}: ${count} requests in a window of budget ${budget}`);
    }
    const failures = [...statuses].filter(([key]) => /\s5\d\d$/.test(key) && !key.startsWith('isbn 503'));
    assert.deepEqual(failures, [], 'no failure other than "ask again in a minute" for an unasked ISBN');

    // The load asked every provider for more than its budget: the instances refused the rest (a
    // request counted but given up by its search's deadline before it left may never reach the fake).
    const refused = new Map<string, number>();
    for (const instance of instances) {
      const text = await (await fetch(`${instance.baseUrl}/metrics`)).text();
      for (const row of text.split('\n')) {
        const match =
          /^booklink_provider_outcomes_total\{provider="(\w+)",outcome="budget_(?:global|address)"\} (\d+)/.exec(
            row,
          );
        if (match?.[1]) refused.set(match[1], (refused.get(match[1]) ?? 0) + Number(match[2]));
        if (row.startsWith('booklink_provider_budget_local_decisions_total')) {
          refused.set('without Redis', (refused.get('without Redis') ?? 0) + Number(row.split(' ').pop()));
        }
      }
    }
    console.log(`refused by the budgets: ${[...refused].map(([p, n]) => `${p} ${n}`).join(', ')}`);
    for (const provider of PROVIDERS)
      assert.ok((refused.get(provider) ?? 0) > 0, `${provider}: nothing refused`);
  });
});
