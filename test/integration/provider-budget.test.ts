import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, afterEach, before, beforeEach, it } from 'node:test';
import { closeRedis, createRedis, type Redis, redisReachable } from '../../src/services/redis.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

/**
 * The provider budget on one instance and on two sharing Redis: once a provider's budget (or one
 * address's share of it) is spent, nothing more is sent to it, whatever the path (search page,
 * API, /isbn/, /resolve), and the answers come from the local catalog, saying they may be
 * incomplete. The windows are a week long, so no test straddles two of them.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const REMOTE = ['openlibrary', 'googlebooks', 'itunes'] as const;
const BUDGET = 6;

function budgetEnv(
  fake: FakeProviders,
  extra: Record<string, string> = {},
  budget = BUDGET,
): Record<string, string> {
  return {
    ...fake.env,
    PROVIDERS: 'local,openlibrary,googlebooks,itunes',
    PROVIDER_TIMEOUT_MS: '1500',
    RATE_LIMIT_ANON: '100000',
    SEARCH_CACHE_MS: '0',
    TRUST_PROXY: 'true',
    PROVIDER_BUDGET_OPENLIBRARY: `${budget}/7d`,
    PROVIDER_BUDGET_GOOGLEBOOKS: `${budget}/7d`,
    PROVIDER_BUDGET_ITUNES: `${budget}/7d`,
    PROVIDER_BUDGET_ADDRESS_SHARE: '1',
    ...extra,
  };
}

const sent = (fake: FakeProviders) => Object.fromEntries(REMOTE.map((p) => [p, fake.requestCount(p)]));
const from = (address: string) => ({ 'x-forwarded-for': address });

interface SearchBody {
  status: string;
  results: Array<{ title: string }>;
  incomplete: boolean;
}

async function apiSearch(t: TestApp, q: string, address = '203.0.113.1'): Promise<SearchBody> {
  const response = await t.get(`/api/v1/search?q=${encodeURIComponent(q)}`, from(address));
  assert.equal(response.status, 200);
  return (await response.json()) as SearchBody;
}

/** Distinct questions no answer cache holds, until every provider's budget is surely spent. */
async function spend(t: TestApp, rounds: number, address = '203.0.113.1', tag = 'a'): Promise<void> {
  for (let i = 0; i < rounds; i++) await apiSearch(t, `quixotic ${tag}${i} zephyr`, address);
}

async function metric(t: TestApp, line: RegExp): Promise<number> {
  const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
  const match = text.split('\n').find((row) => line.test(row));
  return match ? Number(match.split(' ').pop()) : 0;
}

describeEachDialect('the provider budget', (context) => {
  let fake: FakeProviders;
  let apps: TestApp[] = [];
  let redisClients: Redis[] = [];

  const start = async (env: Record<string, string>, redis: Redis | null = null) => {
    const app = await startTestApp(context.store(), env, { redis });
    apps.push(app);
    return app;
  };

  before(async () => {
    fake = await startFakeProviders();
    await addCatalogEntry(context.store(), {
      isbn13: '9780000000019',
      title: 'Slow River',
      authors: ['Nicola Griffith'],
      popularity: 5000,
    });
  });
  beforeEach(() => fake.reset());
  afterEach(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await Promise.all(redisClients.map((client) => closeRedis(client)));
    apps = [];
    redisClients = [];
  });
  after(() => fake.close());

  it('sends nothing more once a budget is spent, and serves local results saying they may be incomplete', async () => {
    const t = await start(budgetEnv(fake));
    await spend(t, 8);
    assert.deepEqual(sent(fake), { openlibrary: BUDGET, googlebooks: BUDGET, itunes: BUDGET });
    const before = fake.requestCount();

    const page = await t.get('/search?q=river', from('198.51.100.7'));
    assert.equal(page.status, 200);
    const html = await page.text();
    assert.match(html, /Slow River/, 'the local catalog still answers');
    assert.match(html, /data-results-incomplete/);
    assert.match(html, /results may be incomplete/);

    const api = await apiSearch(t, 'river', '198.51.100.8');
    assert.equal(api.results[0]?.title, 'Slow River');
    assert.equal(api.incomplete, true);

    const isbn = await t.get('/isbn/9780140449136', from('198.51.100.9'));
    assert.equal(isbn.status, 503, 'an ISBN not asked of every source is not "unknown"');
    assert.equal(isbn.headers.get('retry-after'), '60');
    const resolved = await t.get(
      `/resolve?url=${encodeURIComponent('https://www.amazon.com/dp/0140449132')}`,
      from('198.51.100.10'),
    );
    assert.equal(resolved.status, 302);
    const embed = await t.get('/embed/9780140449136', from('198.51.100.11'));
    assert.ok(embed.status < 500, `embed: ${embed.status}`);
    assert.equal(fake.requestCount(), before, 'no path sends anything once the budgets are spent');

    assert.ok(
      (await metric(
        t,
        /^booklink_provider_outcomes_total\{provider="googlebooks",outcome="budget_global"\}/,
      )) > 0,
    );
    assert.equal(
      await metric(t, /^booklink_provider_budget_requests\{provider="googlebooks",window_seconds="604800"\}/),
      BUDGET,
    );
    assert.equal(
      await metric(t, /^booklink_provider_outcomes_total\{provider="openlibrary",outcome="ok"\}/),
      BUDGET,
    );
  });

  it('says nothing of incompleteness while the budget has room', async () => {
    const t = await start(budgetEnv(fake));
    const api = await apiSearch(t, 'river');
    assert.equal(api.incomplete, false);
    const page = await (await t.get('/search?q=river', from('203.0.113.1'))).text();
    assert.doesNotMatch(page, /data-results-incomplete/);
  });

  it('holds one address to its share, leaving the rest of the budget to others', async () => {
    // A quarter of forty: ten requests per provider for any one address.
    const t = await start(budgetEnv(fake, { PROVIDER_BUDGET_ADDRESS_SHARE: '0.25' }, 40));
    await spend(t, 12, '192.0.2.1', 'x');
    assert.deepEqual(sent(fake), { openlibrary: 10, googlebooks: 10, itunes: 10 });
    const hog = await apiSearch(t, 'river', '192.0.2.1');
    assert.equal(hog.incomplete, true);
    assert.deepEqual(sent(fake), { openlibrary: 10, googlebooks: 10, itunes: 10 });
    // A route with a body (parsed before the address is set) charges the same address.
    const posted = await fetch(`${t.baseUrl}/api/v1/clients/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 test', ...from('192.0.2.1') },
      body: JSON.stringify({ input: 'quixotic posted zephyr by nobody' }),
    });
    assert.equal(posted.status, 200);
    await posted.arrayBuffer();
    assert.deepEqual(sent(fake), { openlibrary: 10, googlebooks: 10, itunes: 10 });
    const fresh = await fetch(`${t.baseUrl}/api/v1/clients/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 test', ...from('192.0.2.3') },
      body: JSON.stringify({ input: 'quixotic posted zephyr by nobody' }),
    });
    await fresh.arrayBuffer();
    assert.ok(fake.requestCount() > 30, 'the same input from another address is asked');
    const afterFresh = sent(fake);

    const other = await apiSearch(t, 'quixotic other zephyr', '192.0.2.2');
    assert.equal(other.incomplete, false, 'another address still has its share');
    for (const provider of REMOTE)
      assert.ok(fake.requestCount(provider) > (afterFresh[provider] ?? 0), provider);
    assert.ok(
      (await metric(
        t,
        /^booklink_provider_outcomes_total\{provider="openlibrary",outcome="budget_address"\}/,
      )) > 0,
    );
    // An IPv6 client is one address per /64: its machines share one share.
    const before = sent(fake);
    await spend(t, 12, '2001:db8:1:1::1', 'six');
    await spend(t, 12, '2001:db8:1:1::2', 'seven');
    for (const provider of REMOTE)
      assert.equal(fake.requestCount(provider) - (before[provider] ?? 0), 10, provider);
  });

  it('holds one budget across two instances sharing Redis', async (test) => {
    if (!(await redisReachable(REDIS_URL))) return test.skip(`Redis is not reachable at ${REDIS_URL}`);
    const prefix = `bltest-budget-${process.pid}-${randomBytes(3).toString('hex')}:`;
    const clients = [
      createRedis(REDIS_URL, { keyPrefix: prefix }),
      createRedis(REDIS_URL, { keyPrefix: prefix }),
    ];
    redisClients.push(...clients);
    const [one, two] = [await start(budgetEnv(fake), clients[0]), await start(budgetEnv(fake), clients[1])];
    for (let i = 0; i < 6; i++) {
      await apiSearch(one, `quixotic one${i} zephyr`);
      await apiSearch(two, `quixotic two${i} zephyr`);
    }
    assert.deepEqual(sent(fake), { openlibrary: BUDGET, googlebooks: BUDGET, itunes: BUDGET });
    assert.equal((await apiSearch(two, 'river')).incomplete, true);
    assert.equal(await metric(one, /^booklink_provider_budget_local_decisions_total/), 0);
    // This run's week-long windows would otherwise stay in the shared Redis for days.
    const raw = createRedis(REDIS_URL, { keyPrefix: '' });
    redisClients.push(raw);
    const keys = await raw.keys(`${prefix}*`);
    if (keys.length > 0) await raw.del(...keys);
  });

  it('keeps counting in the process while Redis is unreachable', async () => {
    const unreachable = createRedis('redis://127.0.0.1:9', {
      keyPrefix: 'bltest-down:',
      onError: () => undefined,
    });
    redisClients.push(unreachable);
    const t = await start(budgetEnv(fake), unreachable);
    await spend(t, 8);
    assert.deepEqual(sent(fake), { openlibrary: BUDGET, googlebooks: BUDGET, itunes: BUDGET });
    assert.ok((await metric(t, /^booklink_provider_budget_local_decisions_total/)) > 0);
  });
});
