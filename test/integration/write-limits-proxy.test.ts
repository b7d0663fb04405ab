import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services/container.js';
import { openStore, type Store } from '../../src/store/db.js';
import { HUMAN_UA } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';

/**
 * Behind a reverse proxy without TRUST_PROXY every reader is the proxy's address, so the write caps
 * become the whole site's. The first cap reached by a private address says so in the log, once.
 */
describeEachDialect('write caps reached by a private address', (context) => {
  const running: { app: FastifyInstance; services: Services; store: Store }[] = [];
  after(async () => {
    for (const { app, services, store } of running) {
      await app.close();
      await services.close();
      await store.close();
    }
  });

  async function start(env: Record<string, string>) {
    const store = openStore(context.url());
    const config = loadConfig({
      DATABASE_URL: context.url(),
      PROVIDERS: 'local',
      WRITE_LIMIT_SEARCHES: '2',
      RATE_LIMIT_ANON: '100000',
      ...env,
    });
    const services = createServices(config, store, { remote: null, textSearch: null });
    const logs: string[] = [];
    const app = await buildApp({ services, logger: { write: (line) => logs.push(line) } });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    running.push({ app, services, store });
    const search = (q: string, headers: Record<string, string> = {}) =>
      fetch(`${address}/api/v1/search?q=${encodeURIComponent(q)}`, {
        headers: { 'user-agent': HUMAN_UA, ...headers },
      }).then((response) => response.text());
    const warnings = () =>
      logs
        .map((line) => JSON.parse(line) as { level: number; msg: string; writer?: string })
        .filter((entry) => entry.level === 40 && entry.msg.includes('TRUST_PROXY'));
    return { search, warnings };
  }

  describe('the log', () => {
    it('warns once when a loopback address reaches a cap (a proxy that is not trusted)', async () => {
      const { search, warnings } = await start({});
      for (let i = 0; i < 6; i++) await search(`proxied reader ${i}`);
      const said = warnings();
      assert.equal(said.length, 1, JSON.stringify(said));
      assert.match(said[0]?.msg ?? '', /127\.0\.0\.1.*search writes.*set TRUST_PROXY/);
      assert.equal(said[0]?.writer, 'ip:127.0.0.1');
    });

    it('warns for IPv6 loopback too (named by its /64, `::`)', async () => {
      const { search, warnings } = await start({ TRUST_PROXY: 'true' });
      for (let i = 0; i < 4; i++) await search(`v6 reader ${i}`, { 'x-forwarded-for': '::1' });
      assert.equal(warnings().length, 1);
      assert.equal(warnings()[0]?.writer, 'ip:::');
    });

    it('stays quiet when a public reader reaches it (the proxy is trusted)', async () => {
      const { search, warnings } = await start({ TRUST_PROXY: 'true' });
      for (let i = 0; i < 6; i++) await search(`public reader ${i}`, { 'x-forwarded-for': '198.51.100.7' });
      assert.deepEqual(warnings(), []);
    });
  });
});
