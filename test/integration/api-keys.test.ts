import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { requireScope } from '../../src/http/plugins/api-keys.js';
import { createServices, type Services } from '../../src/services/container.js';
import { API_KEY_PATTERN, createApiKey } from '../../src/store/api-keys.js';
import { listUsage } from '../../src/store/api-usage.js';
import { openStore, type Store } from '../../src/store/db.js';
import { HUMAN_UA } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';

const run = promisify(execFile);

describeEachDialect('API keys', (context) =>
  describe('keys, scopes, usage and the CLI', () => {
    let store: Store;
    let services: Services;
    let app: FastifyInstance;
    let address = '';
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${address}${path}`, { headers: { 'user-agent': HUMAN_UA, ...headers } });
    const cli = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'apikey', ...args], {
        env: { ...process.env, DATABASE_URL: context.url() },
      });

    before(async () => {
      store = openStore(context.url());
      const config = loadConfig({
        BASE_URL: 'http://booklink.test',
        DATABASE_URL: context.url(),
        PROVIDERS: 'local',
      });
      // A short cache, so a revoke from another process shows within the test.
      services = createServices(config, store, { remote: null, textSearch: null, apiKeyCacheMs: 300 });
      app = await buildApp({ services });
      app.get('/api/v1/test/whoami', async (request) => ({ key: request.apiKey }));
      app.get('/api/v1/test/ingest', { preHandler: requireScope('ingest') }, async () => ({ ok: true }));
      address = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await app.close();
      await services.close();
      await store.close();
    });

    it('treats a missing or empty key as anonymous and exposes a valid one to handlers', async () => {
      assert.deepEqual(await (await get('/api/v1/test/whoami')).json(), { key: null });
      assert.deepEqual(await (await get('/api/v1/test/whoami', { 'x-api-key': '' })).json(), { key: null });
      const { key, apiKey } = await createApiKey(store.db, { name: 'reader app', scopes: ['ingest'] });
      assert.match(key, API_KEY_PATTERN);
      const response = await get('/api/v1/test/whoami', { 'x-api-key': key });
      assert.deepEqual(await response.json(), {
        key: { id: apiKey.id, name: 'reader app', scopes: ['ingest'] },
      });
    });

    it('answers 401 with a JSON detail for unknown, malformed and revoked keys', async () => {
      for (const bad of [`bl_${'x'.repeat(32)}`, 'not-a-key', 'bl_short']) {
        const response = await get('/api/v1/test/whoami', { 'x-api-key': bad });
        assert.equal(response.status, 401, bad);
        assert.match(response.headers.get('content-type') ?? '', /application\/json/);
        assert.match(((await response.json()) as { detail: string }).detail, /unknown or has been revoked/);
      }
      const { key, apiKey } = await createApiKey(store.db, { name: 'to revoke', scopes: [] });
      assert.equal((await get('/api/v1/test/whoami', { 'x-api-key': key })).status, 200);
      const outcome = await services.admin.keys.revoke({ id: null, email: 'test' }, apiKey.prefix);
      assert.equal(outcome.kind, 'revoked');
      assert.equal(
        (await get('/api/v1/test/whoami', { 'x-api-key': key })).status,
        401,
        'at once in this process',
      );
    });

    it('stores only a SHA-256 of the key', async () => {
      const { key, apiKey } = await createApiKey(store.db, { name: 'hashed', scopes: [] });
      const row = await store.db
        .withTables<{ api_keys: { id: number; key_hash: string; key_prefix: string } }>()
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', apiKey.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.key_hash, createHash('sha256').update(key).digest('hex'));
      assert.equal(row.key_prefix, key.slice(0, 8));
      assert.ok(!Object.values(row).includes(key));
    });

    it('requires a scope: 401 without a key, 403 without the scope, 200 with it', async () => {
      const plain = await createApiKey(store.db, { name: 'plain', scopes: [] });
      const ingest = await createApiKey(store.db, { name: 'ingest', scopes: ['ingest'] });
      assert.equal((await get('/api/v1/test/ingest')).status, 401);
      assert.equal((await get('/api/v1/test/ingest', { 'x-api-key': plain.key })).status, 403);
      assert.equal((await get('/api/v1/test/ingest', { 'x-api-key': ingest.key })).status, 200);
    });

    it('records usage by day, key, source and route, off the request path', async () => {
      const { key, apiKey } = await createApiKey(store.db, { name: 'usage', scopes: [] });
      for (let i = 0; i < 3; i++)
        await get('/api/v1/test/whoami?source=app-usage-test', { 'x-api-key': key });
      await get(`/api/v1/test/whoami?source=${'s'.repeat(80)}`);
      await get('/api/v1/test/whoami', { 'x-api-key': 'bl_unknown' });
      await services.usage.flush();
      const rows = await listUsage(store.db);
      const keyed = rows.find((row) => row.keyId === apiKey.id);
      assert.deepEqual(keyed && { ...keyed, day: '' }, {
        day: '',
        keyId: apiKey.id,
        source: 'app-usage-test',
        route: '/api/v1/test/whoami',
        count: 3,
      });
      assert.ok(rows.some((row) => row.keyId === null && row.source === 's'.repeat(50)));
      const used = await store.db
        .withTables<{ api_keys: { id: number; last_used_at: string | null } }>()
        .selectFrom('api_keys')
        .select('last_used_at')
        .where('id', '=', apiKey.id)
        .executeTakeFirstOrThrow();
      assert.ok(used.last_used_at);
    });

    it('CLI: create prints a key that works, list shows its prefix only, revoke makes it 401', async () => {
      const created = await cli('create', '--name', 'cli app', '--scope', 'ingest');
      const key = created.stdout.trim();
      assert.match(key, API_KEY_PATTERN);
      assert.match(created.stderr, /only its hash is kept/);
      assert.equal((await get('/api/v1/test/ingest', { 'x-api-key': key })).status, 200);
      const listed = await cli('list');
      assert.ok(listed.stdout.includes(key.slice(0, 8)));
      assert.ok(!listed.stdout.includes(key));
      assert.match(listed.stdout, /cli app/);
      const revoked = await cli('revoke', key.slice(0, 8));
      assert.match(revoked.stdout, /revoked key/);
      // Another process revoked it: this one notices within its cache bound (300 ms here, 30 s by default).
      await new Promise((resolve) => setTimeout(resolve, 400));
      assert.equal((await get('/api/v1/test/ingest', { 'x-api-key': key })).status, 401);
      await assert.rejects(cli('create'), /--name is required/);
      await assert.rejects(cli('create', '--name', 'x', '--scope', 'admin'), /unknown scope "admin"/i);
    });

    it('CLI: create and revoke leave the same audit rows as the admin area, by "cli"', async () => {
      const key = (await cli('create', '--name', 'audited app')).stdout.trim();
      await cli('revoke', key.slice(0, 8));
      const apiKey = (await services.admin.keys.overview()).keys.find((k) => k.prefix === key.slice(0, 8));
      assert.ok(apiKey);
      const rows = await store.db
        .selectFrom('audit_log')
        .select(['user_id', 'user_email', 'action', 'entity_type', 'entity_id'])
        .where('entity_type', '=', 'api_key')
        .where('entity_id', '=', String(apiKey.id))
        .orderBy('id')
        .execute();
      assert.deepEqual(rows, [
        {
          user_id: null,
          user_email: 'cli',
          action: 'apikey.create',
          entity_type: 'api_key',
          entity_id: String(apiKey.id),
        },
        {
          user_id: null,
          user_email: 'cli',
          action: 'apikey.revoke',
          entity_type: 'api_key',
          entity_id: String(apiKey.id),
        },
      ]);
    });
  }),
);
