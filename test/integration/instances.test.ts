import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { redisReachable } from '../../src/services/redis.js';
import { openStore, type Store } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { BOT_UA, HUMAN_UA } from '../support/app.js';
import {
  createTestDatabase,
  postgresAvailable,
  REQUIRE_ALL,
  type TestDatabase,
} from '../support/databases.js';
import {
  freePort,
  type Instance,
  nginxAvailable,
  type ReverseProxy,
  serverInstance,
  startNginx,
} from '../support/instances.js';
import { AdminClient, addBook, addUser, PASSWORD } from './admin-support.js';

/**
 * Three `booklink serve` processes on one PostgreSQL and one Redis behind a real nginx, as a site that
 * outgrew one machine runs them: an admin edit on one instance reaches the others' caches, sessions,
 * CSRF, lockouts and rate limits hold whichever instance answers, and a rolling restart under load
 * fails no request and loses no click.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ISBN = '9780141439518';
const ADMIN = 'ops@example.org';

async function missing(): Promise<string | null> {
  if (!nginxAvailable()) return 'nginx is not installed (apt-get install nginx-light)';
  if (!(await postgresAvailable())) return 'PostgreSQL is not reachable';
  if (!(await redisReachable(REDIS_URL))) return `Redis is not reachable at ${REDIS_URL}`;
  return null;
}

function fetchPage(baseUrl: string, path: string): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { redirect: 'manual', headers: { 'user-agent': HUMAN_UA } });
}

async function pageText(baseUrl: string, path: string): Promise<string> {
  const response = await fetchPage(baseUrl, path);
  assert.equal(response.status, 200);
  return response.text();
}

/** Polls until `check` holds; the bound is far below the page caches' 30 s TTL, so only invalidation passes. */
async function eventually(check: () => Promise<boolean>, withinMs = 3000): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > withinMs) throw new Error(`not true within ${withinMs} ms`);
    await delay(20);
  }
  return Date.now() - started;
}

describe('three instances behind nginx on PostgreSQL and Redis', async () => {
  const reason = await missing();
  if (reason) {
    const message = `${reason}: SKIPPING the multi-instance tests`;
    if (REQUIRE_ALL) throw new Error(message);
    console.warn(`\n!!! ${message}\n`);
    return;
  }
  let database: TestDatabase;
  let store: Store;
  let instances: Instance[] = [];
  let proxy: ReverseProxy;
  let bookId: number;
  const slug = 'great-expectations';

  before(async () => {
    database = await createTestDatabase('postgres');
    store = openStore(database.url);
    await migrateToLatest(store);
    await addUser(store, ADMIN, 'admin');
    bookId = await addBook(store, {
      slug,
      title: 'Great Expectations',
      isbn13: ISBN,
      authors: ['Charles Dickens'],
    });
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_KEY_PREFIX: `bltest-${process.pid}-${randomBytes(3).toString('hex')}:`,
      BASE_URL: 'http://booklink.test',
      PROVIDERS: 'local',
      RATE_LIMIT_ANON: '20',
      // The rolling restart sends every click from one address: durability, not the per-address cap.
      WRITE_LIMIT_CLICKS: '1000000',
      COOKIE_SECRET: randomBytes(32).toString('hex'),
    };
    const ports = [await freePort(), await freePort(), await freePort()];
    instances = ports.map((port) => serverInstance(env, port));
    // The first one migrates alone; the others start together.
    await instances[0]?.start();
    await Promise.all(instances.slice(1).map((instance) => instance.start()));
    proxy = await startNginx(ports);
  });

  after(async () => {
    await proxy?.close();
    await Promise.all(instances.map((instance) => instance.stop()));
    await store?.close();
    await database?.drop();
  });

  it('shows an admin edit made on one instance on every other instance at once', async () => {
    const [first, ...others] = instances;
    assert.ok(first);
    // Every instance caches the page first.
    for (const instance of instances) {
      assert.match(await pageText(instance.baseUrl, `/book/${slug}`), /Great Expectations/);
    }
    const admin = new AdminClient(first);
    assert.equal((await admin.login(ADMIN)).status, 303);
    await admin.get(`/admin/books/${bookId}`);
    const saved = await admin.post(`/admin/books/${bookId}/edit`, {
      title: 'Great Expectations (Revised)',
      authors: 'Charles Dickens',
      isbn_13: ISBN,
      cover_url: '',
      description: '',
    });
    assert.equal(saved.status, 303, saved.body);
    for (const instance of others) {
      const elapsed = await eventually(async () =>
        /Great Expectations \(Revised\)/.test(await pageText(instance.baseUrl, `/book/${slug}`)),
      );
      console.log(`edit visible on :${instance.port} after ${elapsed} ms`);
    }
  });

  it('applies an affiliate tag set on one instance on every other instance at once', async () => {
    const [first, ...others] = instances;
    assert.ok(first);
    // As a crawler: redirected alike, but no click is stored (the rolling-restart test counts clicks).
    const tagOf = async (baseUrl: string) => {
      const response = await fetch(`${baseUrl}/go/${slug}/amazon?country=GB`, {
        redirect: 'manual',
        headers: { 'user-agent': BOT_UA },
      });
      assert.equal(response.status, 302);
      return new URL(response.headers.get('location') ?? '').searchParams.get('tag');
    };
    // Every instance resolves (and caches) the untagged target first.
    for (const instance of instances) assert.equal(await tagOf(instance.baseUrl), null);
    const admin = new AdminClient(first);
    assert.equal((await admin.login(ADMIN)).status, 303);
    const page = await admin.get('/admin/affiliate');
    const row = page.body.slice(page.body.indexOf('<tr data-store="amazon.GB"'));
    const destinationId = /name="destination_id" value="(\d+)"/.exec(row)?.[1];
    assert.ok(destinationId, 'the amazon GB row has a form');
    const saved = await admin.post('/admin/affiliate/tags', {
      destination_id: destinationId,
      country: 'GB',
      tag: 'everywhere-21',
    });
    assert.equal(saved.status, 303, saved.body);
    assert.equal(await tagOf(first.baseUrl), 'everywhere-21');
    for (const instance of others) {
      const elapsed = await eventually(async () => (await tagOf(instance.baseUrl)) === 'everywhere-21');
      console.log(`tag live on :${instance.port} after ${elapsed} ms`);
    }
  });

  it('shows a brand change made on one instance on every instance, without a restart', async () => {
    const [, second] = instances;
    assert.ok(second);
    const paths = ['/', `/book/${slug}`, `/embed/${slug}`, `/embed/${slug}.json`, '/developers.md'];
    // Every instance holds the pages in its caches before the change.
    for (const instance of instances) {
      for (const path of paths) assert.match(await pageText(instance.baseUrl, path), /Booklink/);
    }
    const admin = new AdminClient(second);
    assert.equal((await admin.login(ADMIN)).status, 303);
    await admin.get('/admin/brand');
    const saved = await admin.post('/admin/brand', {
      site_name: 'Riverside Books',
      accent_light: '#7a2e00',
      accent_dark: '',
      disclosure: 'Riverside earns a little from some links.',
    });
    assert.equal(saved.status, 303, saved.body);
    // A 1×1 PNG, the logo.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const form = new FormData();
    form.set('logo', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'logo.png');
    assert.equal((await admin.upload('/admin/brand/logo', form)).status, 303);
    const branded: Record<string, RegExp[]> = {
      '/': [
        /Riverside Books/,
        /Riverside earns a little/,
        /\/brand\/theme-7a2e00-\.css/,
        /\/brand\/logo-[0-9a-f]+\.png/,
      ],
      [`/book/${slug}`]: [
        /content="Riverside Books"/,
        /Riverside earns a little/,
        /\/brand\/theme-7a2e00-/,
        /brand__logo/,
      ],
      [`/embed/${slug}`]: [
        /Riverside Books/,
        /Riverside earns a little/,
        /\/brand\/theme-7a2e00-/,
        /bl-logo/,
      ],
      [`/embed/${slug}.json`]: [/"name":"Riverside Books"/, /"accent_light":"#7a2e00"/, /"logo_url":"http/],
      '/developers.md': [/^# Riverside Books for developers/],
    };
    for (const instance of instances) {
      for (const [path, patterns] of Object.entries(branded)) {
        const elapsed = await eventually(async () => {
          const text = await pageText(instance.baseUrl, path);
          return patterns.every((pattern) => pattern.test(text));
        });
        console.log(`brand on :${instance.port}${path} after ${elapsed} ms`);
      }
      const logo = /\/brand\/logo-[0-9a-f]+\.png/.exec(await pageText(instance.baseUrl, '/'))?.[0] ?? '';
      const served = await fetchPage(instance.baseUrl, logo);
      assert.equal(served.status, 200);
      assert.equal(served.headers.get('content-type'), 'image/png');
    }
  });

  it('keeps a session and its CSRF token valid on whichever instance answers', async () => {
    const [first, second, third] = instances;
    assert.ok(first && second && third);
    const admin = new AdminClient(first);
    assert.equal((await admin.login(ADMIN)).status, 303);
    assert.ok(admin.sessionToken());
    // The same browser: the form is read from one instance and posted to another.
    admin.t = second;
    const form = await admin.get('/admin/pins');
    assert.equal(form.status, 200);
    admin.t = third;
    const posted = await admin.post('/admin/pins', { query: 'pip and estella', book_ref: slug, notes: '' });
    assert.equal(posted.status, 303, posted.body);
    admin.t = first;
    assert.match((await admin.get('/admin/pins')).body, /pip and estella/);
  });

  it('locks an account after ten wrong passwords spread over the instances', async () => {
    const locked = 'locked@example.org';
    await addUser(store, locked, 'editor');
    for (let attempt = 0; attempt < 10; attempt++) {
      const instance = instances[attempt % instances.length];
      assert.ok(instance);
      const result = await new AdminClient(instance).login(locked, 'wrong password here');
      assert.notEqual(result.status, 303);
    }
    for (const instance of instances) {
      const client = new AdminClient(instance);
      const result = await client.login(locked, PASSWORD);
      assert.notEqual(result.status, 303, `the right password passed on :${instance.port}`);
      assert.equal(client.hasSession(), false);
    }
  });

  it('shares the API rate limit across the instances', async () => {
    const statuses: number[] = [];
    for (let call = 0; call < 25; call++) {
      const response = await fetchPage(proxy.baseUrl, `/api/v1/search?q=dickens&source=app-instances`);
      await response.arrayBuffer();
      statuses.push(response.status);
    }
    assert.equal(statuses.filter((status) => status === 200).length, 20);
    assert.equal(statuses.filter((status) => status === 429).length, 5);
  });

  it('fails no request and loses no click during a rolling restart under load', async () => {
    let running = true;
    const outcomes = { pages: 0, redirects: 0, failures: [] as string[] };
    const worker = async (index: number) => {
      let sfid = index * 1_000_000;
      while (running) {
        sfid++;
        const path = sfid % 2 === 0 ? `/b/${slug}` : `/go/${slug}/worldcat?sfid=${sfid}`;
        try {
          const response = await fetchPage(proxy.baseUrl, path);
          await response.arrayBuffer();
          if (response.status === 200) outcomes.pages++;
          else if (response.status === 302) outcomes.redirects++;
          else outcomes.failures.push(`${path}: ${response.status}`);
        } catch (error) {
          outcomes.failures.push(`${path}: ${String(error)}`);
        }
      }
    };
    const before = await clickCount(store);
    const load = Promise.all([1, 2, 3, 4, 5, 6].map(worker));
    await delay(500);
    for (const instance of instances) {
      assert.equal(await instance.stop(), 0, instance.output());
      await instance.start();
      await delay(300);
    }
    running = false;
    await load;
    assert.deepEqual(
      outcomes.failures,
      [],
      `nginx: ${proxy.errorLog()}\n${instances.map((instance) => instance.output().slice(-1500)).join('\n')}`,
    );
    assert.ok(outcomes.pages > 0 && outcomes.redirects > 0);
    // Stopping flushes every instance's click buffer: each redirect answered is one click row.
    await Promise.all(instances.map((instance) => instance.stop()));
    assert.equal((await clickCount(store)) - before, outcomes.redirects);
    await Promise.all(instances.map((instance) => instance.start()));
  });
});

async function clickCount(store: Store): Promise<number> {
  const row = await store.db
    .selectFrom('clicks')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
