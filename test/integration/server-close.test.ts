import assert from 'node:assert/strict';
import { Agent, get, type IncomingMessage } from 'node:http';
import { it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices } from '../../src/services/container.js';
import { openStore } from '../../src/store/db.js';
import { describeEachDialect } from '../support/databases.js';

/** A GET through `agent`, its body read; resolves with the response. */
function fetchThrough(agent: Agent, url: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    get(url, { agent }, (response) => {
      response.resume();
      response.on('end', () => resolve(response));
    }).on('error', reject);
  });
}

/**
 * A shutdown (SIGTERM) closes the app while readers' connections are kept alive: a request already
 * being answered must end its connection, or the process waits for the client or the keep-alive timeout.
 */
describeEachDialect('closing the server', (context) => {
  it('answers a request in flight, then ends its kept-alive connection', async () => {
    const store = openStore(context.url());
    const config = loadConfig({
      BASE_URL: 'http://booklink.test',
      DATABASE_URL: context.url(),
      PROVIDERS: 'local',
    });
    const services = createServices(config, store, { remote: null, textSearch: null });
    const app = await buildApp({ services });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let arrived = () => {};
    const inHandler = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    app.get('/test/held', async () => {
      arrived();
      await held;
      return { ok: true };
    });
    // The held request is answered once the close has begun: after the app's own close hooks.
    app.addHook('preClose', (done) => {
      release();
      done();
    });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    // One socket, kept alive as a browser or a proxy keeps it.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await fetchThrough(agent, `${address}/healthz`);
      assert.equal(first.headers.connection, 'keep-alive');
      const answer = fetchThrough(agent, `${address}/test/held`);
      await inHandler;
      const closed = app.close();
      const response = await answer;
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers.connection, 'close');
      await closed;
    } finally {
      agent.destroy();
      await services.close();
      await store.close();
    }
  });
});
