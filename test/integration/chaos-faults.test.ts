import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { createRedis } from '../../src/services/redis.js';
import type { Store } from '../../src/store/db.js';
import { startTestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { startHungRedis } from '../support/hung-redis.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/**
 * Issue 11 (faults): what an operator's bad day does to a real `booklink serve` process. A kill -9 in
 * the middle of a burst of clicks, PostgreSQL connections cut inside a transaction and while clicks
 * stream in, the database refusing connections, and a Redis that accepts connections but never answers.
 * Every click carries its own `sfid`, so the tests know exactly which redirected clicks were kept.
 */
const ISBN = '9780141439518';
const APP_NAME = 'booklink-chaos';

async function createBook(server: ServerProcess): Promise<string> {
  const response = await server.get(`/isbn/${ISBN}`);
  assert.equal(response.status, 302, server.output());
  return (response.headers.get('location') ?? '').replace('/book/', '');
}

/** One click: true when the server answered the 302 (and so promised to count it). */
async function click(server: ServerProcess, slug: string, sfid: number): Promise<boolean> {
  try {
    const response = await server.get(`/go/${slug}/worldcat?sfid=${sfid}`);
    await response.arrayBuffer();
    return response.status === 302;
  } catch {
    return false;
  }
}

/** Workers clicking with consecutive sfids until `stop()`; `answered` holds every 302. */
function clickStream(server: ServerProcess, slug: string, first: number, workers: number) {
  const answered: number[] = [];
  let next = first;
  let stopped = false;
  const loops = Array.from({ length: workers }, async () => {
    while (!stopped) {
      const sfid = next++;
      if (await click(server, slug, sfid)) answered.push(sfid);
    }
  });
  return {
    answered,
    sent: () => next - first,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Rows per sfid in [from, to): a click written twice shows up as a count of 2. */
async function clickRows(store: Store, from: number, to: number): Promise<Map<number, number>> {
  const rows = await store.db
    .selectFrom('clicks')
    .select('sfid')
    .where('sfid', '>=', from)
    .where('sfid', '<', to)
    .execute();
  const counts = new Map<number, number>();
  for (const row of rows) counts.set(Number(row.sfid), (counts.get(Number(row.sfid)) ?? 0) + 1);
  return counts;
}

function assertEachOnce(answered: readonly number[], rows: Map<number, number>, context: string): void {
  const missing = answered.filter((sfid) => !rows.has(sfid));
  const twice = [...rows].filter(([, count]) => count > 1).map(([sfid]) => sfid);
  assert.deepEqual(missing, [], `${context}: redirected clicks missing`);
  assert.deepEqual(twice, [], `${context}: clicks written twice`);
}

async function waitFor(what: string, condition: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await delay(50);
  }
}

describeEachDialect('chaos: kill -9 during a /go/ burst', (context) => {
  const walDir = mkdtempSync(join(tmpdir(), 'booklink-wal-'));
  let server: ServerProcess | undefined;
  before(() =>
    addCatalogEntry(context.store(), { isbn13: ISBN, title: 'Persuasion', authors: ['Jane Austen'] }),
  );
  after(() => {
    server?.child.kill('SIGKILL');
    rmSync(walDir, { recursive: true, force: true });
  });

  it('loses no redirected click and counts none twice after the restart (journal replayed)', async () => {
    const env = { DATABASE_URL: context.url(), CLICK_WAL_DIR: walDir };
    server = await startServerProcess(env);
    const slug = await createBook(server);
    for (let round = 0; round < 2; round++) {
      const first = 10_000 * (round + 1);
      const stream = clickStream(server, slug, first, 8);
      // Long enough for several flushes to reach the database and for a batch to be in flight.
      await waitFor('clicks answered', async () => stream.answered.length >= 200);
      server.child.kill('SIGKILL');
      assert.equal((await server.exit).signal, 'SIGKILL');
      await stream.stop();
      server = await startServerProcess(env);
      assert.match(server.output(), /clicks replayed from 1 journal/);
      assertEachOnce(
        stream.answered,
        await clickRows(context.store(), first, first + 10_000),
        `round ${round + 1}`,
      );
    }
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exit, { code: 0, signal: null }, server.output());
  });
});

describeEachDialect('chaos: a Redis that accepts connections and never answers', (context) => {
  it('opens the circuit: API calls succeed without waiting on Redis and /readyz says degraded (200)', async () => {
    const hung = await startHungRedis();
    const redis = createRedis(hung.url, { keyPrefix: `chaos-${process.pid}:`, onError: () => undefined });
    const api = await startTestApp(context.store(), {}, { redis, textSearch: null });
    try {
      await waitFor('redis handshake', async () => redis.status === 'ready');
      const calls = 12;
      for (let call = 0; call < calls; call++) {
        const response = await api.get('/api/v1/search?q=persuasion');
        assert.equal(response.status, 200, await response.text());
      }
      // The first calls each wait one command timeout; once open, the circuit keeps calls off Redis.
      assert.ok(hung.unanswered() < calls, `${hung.unanswered()} of ${calls} calls waited on Redis`);
      const ready = await api.get('/readyz');
      assert.equal(ready.status, 200);
      const body = (await ready.json()) as { status: string; checks: Record<string, string> };
      assert.equal(body.status, 'degraded');
      assert.equal(body.checks.database, 'ok');
      assert.match(body.checks.redis ?? '', /^failed: circuit open/);
    } finally {
      await api.close();
      redis.disconnect();
      await hung.close();
    }
  });
});

describeEachDialect('chaos: PostgreSQL connections lost and refused', (context) => {
  // Connections, backends and ALLOW_CONNECTIONS are PostgreSQL's; SQLite has no connection to lose.
  if (context.dialect !== 'postgres') return;
  let admin: pg.Client | undefined;
  let server: ServerProcess | undefined;
  let database = '';
  let serverUrl = '';

  before(async () => {
    const url = new URL(context.url());
    database = url.pathname.slice(1);
    url.searchParams.set('application_name', APP_NAME);
    serverUrl = url.toString();
    const adminUrl = new URL(context.url());
    adminUrl.pathname = '/postgres';
    admin = new pg.Client({ connectionString: adminUrl.toString() });
    admin.on('error', () => undefined);
    await admin.connect();
    await addCatalogEntry(context.store(), { isbn13: ISBN, title: 'Persuasion', authors: ['Jane Austen'] });
  });
  after(async () => {
    server?.child.kill('SIGKILL');
    if (admin) {
      await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`).catch(() => undefined);
      await admin.end();
    }
  });

  /** Cuts the server's connections (only its own: the test's connections carry another name). */
  async function terminateServerBackends(where = ''): Promise<number> {
    const result = await (admin as pg.Client).query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = $2 ${where}`,
      [database, APP_NAME],
    );
    return result.rowCount ?? 0;
  }

  it('a backend terminated while its click transaction waits on a lock: the process stays up, no click lost', async () => {
    server = await startServerProcess({ DATABASE_URL: serverUrl, CLICK_WAL_DIR: 'off' });
    const slug = await createBook(server);
    const locker = new pg.Client({ connectionString: context.url() });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE clicks IN ACCESS EXCLUSIVE MODE');
      const answered: number[] = [];
      for (let sfid = 100; sfid < 140; sfid++) if (await click(server, slug, sfid)) answered.push(sfid);
      assert.equal(answered.length, 40);
      // The recorder's flush is now inside its transaction, waiting for the lock.
      await waitFor('a server backend waiting on the lock', async () => {
        return (await terminateServerBackends(`AND wait_event_type = 'Lock'`)) > 0;
      });
      await locker.query('ROLLBACK');
      const health = await server.get('/healthz');
      assert.equal(health.status, 200);
      await waitFor('the clicks written on retry', async () => {
        return (await clickRows(context.store(), 100, 140)).size === 40;
      });
      assertEachOnce(answered, await clickRows(context.store(), 100, 140), 'after the lock');
      assert.equal(server.child.exitCode, null, server.output());
      assert.doesNotMatch(server.output(), /Unhandled 'error' event/);
    } finally {
      await locker.end();
    }
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exit, { code: 0, signal: null }, server.output());
  });

  it('backends terminated again and again during a /go/ burst: the process stays up, no click lost', async () => {
    server = await startServerProcess({ DATABASE_URL: serverUrl, CLICK_WAL_DIR: 'off' });
    const slug = await createBook(server);
    const stream = clickStream(server, slug, 1000, 6);
    let terminated = 0;
    for (let round = 0; round < 8; round++) {
      await delay(250);
      terminated += await terminateServerBackends();
    }
    await stream.stop();
    assert.ok(terminated > 0, 'no server backend was terminated');
    assert.ok(stream.answered.length > 0);
    assert.equal((await server.get('/healthz')).status, 200);
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exit, { code: 0, signal: null }, server.output());
    assertEachOnce(stream.answered, await clickRows(context.store(), 1000, 1000 + stream.sent()), 'burst');
  });

  it('the database refusing connections answers 503 with Retry-After (JSON under /api/, HTML elsewhere), then recovers', async () => {
    server = await startServerProcess({ DATABASE_URL: serverUrl, CLICK_WAL_DIR: 'off' });
    assert.equal((await server.get('/api/v1/lists/999999')).status, 404);
    await (admin as pg.Client).query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
    try {
      await terminateServerBackends();
      const api = await server.get('/api/v1/lists/999999');
      assert.equal(api.status, 503);
      assert.equal(api.headers.get('retry-after'), '5');
      const body = (await api.json()) as { detail: string };
      assert.equal(typeof body.detail, 'string');
      assert.doesNotMatch(body.detail, /accepting connections|postgres|database "/i, 'no internals in a 5xx');
      const page = await server.get('/list/999999', { accept: 'text/html' });
      assert.equal(page.status, 503);
      assert.match(page.headers.get('content-type') ?? '', /text\/html/);
      assert.equal((await server.get('/readyz')).status, 503);
      assert.equal(server.child.exitCode, null, server.output());
    } finally {
      await (admin as pg.Client).query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
    }
    await waitFor('the API answering again', async () => {
      return (await server?.get('/api/v1/lists/999999'))?.status === 404;
    });
    assert.equal((await server.get('/readyz')).status, 200);
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exit, { code: 0, signal: null }, server.output());
  });
});
