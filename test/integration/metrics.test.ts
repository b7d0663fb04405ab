import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services/container.js';
import { openStore, type Store } from '../../src/store/db.js';
import { HUMAN_UA } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';

/** The value of one sample line (`name{labels} value`), 0 when absent. */
function sample(text: string, prefix: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(prefix));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describeEachDialect('/metrics and request logs', (context) =>
  describe('counters and redaction', () => {
    let store: Store;
    let services: Services;
    let app: FastifyInstance;
    let address = '';
    const logs: string[] = [];
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${address}${path}`, { redirect: 'manual', headers: { 'user-agent': HUMAN_UA, ...headers } });
    const metrics = async () => (await get('/metrics')).text();

    before(async () => {
      store = openStore(context.url());
      const config = loadConfig({ DATABASE_URL: context.url(), PROVIDERS: 'local', RATE_LIMIT_ANON: '2' });
      services = createServices(config, store, { remote: null, textSearch: null });
      app = await buildApp({ services, logger: { write: (line) => logs.push(line) } });
      app.get('/api/v1/test/ping', async () => ({ ok: true }));
      address = await app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await app.close();
      await services.close();
      await store.close();
    });

    it('serves the Prometheus text format, unlimited and absent from OpenAPI', async () => {
      const responses = await Promise.all(Array.from({ length: 10 }, () => get('/metrics')));
      assert.ok(responses.every((response) => response.status === 200));
      assert.match(responses[0]?.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const text = await responses[0]!.text();
      assert.match(text, /# TYPE booklink_http_requests_total counter/);
      assert.match(text, /# TYPE booklink_http_request_duration_seconds histogram/);
      assert.match(text, /process_cpu_user_seconds_total/);
      const openapi = (await (await get('/openapi.json')).json()) as { paths: Record<string, unknown> };
      assert.equal(openapi.paths['/metrics'], undefined);
    });

    it('counts the searches that waited for a later turn of a busy event loop', async () => {
      const before = sample(await metrics(), 'booklink_search_deferred_total');
      // Two searches in one turn, the loop held 5 ms between them: the second waits for the next turn.
      const first = services.search.search('turns first query');
      const until = performance.now() + 5;
      while (performance.now() < until);
      const second = services.search.search('turns second query');
      await Promise.all([first, second]);
      assert.equal(sample(await metrics(), 'booklink_search_deferred_total'), before + 1);
    });

    it('shows a stall of the event loop in its delay since the previous scrape', async () => {
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      await metrics(); // starts a new window
      await pause(30); // the monitor's first tick after a reset only starts its clock
      const until = performance.now() + 250;
      while (performance.now() < until); // what a long synchronous task does to every waiting request
      await pause(30);
      const stalled = await metrics();
      assert.ok(sample(stalled, 'nodejs_eventloop_lag_max_seconds') >= 0.24, stalled);
      // Sampled every millisecond: the ticks around the stall read about 1 ms, not prom-client's 10.
      assert.ok(sample(stalled, 'nodejs_eventloop_lag_min_seconds') < 0.005, stalled);
      await pause(100);
      const quiet = await metrics();
      assert.ok(sample(quiet, 'nodejs_eventloop_lag_max_seconds') < 0.24, 'each scrape starts a new window');
    });

    it('counts requests by route pattern and status class, and rate-limit rejections', async () => {
      const route = 'booklink_http_requests_total{method="GET",route="/book/:slug",status_class="4xx"}';
      const before = await metrics();
      await get('/book/no-such-book-one');
      await get('/book/no-such-book-two');
      for (let i = 0; i < 4; i++) await get('/api/v1/test/ping');
      const text = await metrics();
      assert.equal(sample(text, route) - sample(before, route), 2);
      assert.ok(!text.includes('no-such-book'), 'raw URLs never become labels');
      const rejected = 'booklink_rate_limit_rejections_total{client="anonymous"}';
      assert.equal(sample(text, rejected) - sample(before, rejected), 2);
      const latency =
        'booklink_http_request_duration_seconds_count{method="GET",route="/api/v1/test/ping",status_class="2xx"}';
      assert.equal(sample(text, latency) - sample(before, latency), 2);
      assert.match(text, /booklink_clicks_pending 0/);
      assert.match(text, /booklink_api_usage_recorded_total \d+/);
    });

    it('logs requests as JSON lines without secrets', async () => {
      logs.length = 0;
      await get('/healthz', {
        'x-api-key': 'bl_secretsecretsecretsecretsecret12',
        authorization: 'Bearer top-secret-token',
        cookie: 'session=secret-cookie',
        'x-edit-token': 'secret-edit-token',
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const text = logs.join('');
      assert.ok(!/secret/i.test(text), text);
      const incoming = logs
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((entry) => entry.req);
      assert.ok(incoming);
      const req = incoming.req as { url: string; headers: Record<string, string> };
      const headers = req.headers;
      for (const name of ['x-api-key', 'authorization', 'cookie', 'x-edit-token']) {
        assert.equal(headers[name], '[redacted]', name);
      }
      assert.equal(req.url, '/healthz');
      // Response headers (cookies the service sets) are never logged: only the status code is.
      assert.deepEqual(incoming.res, { statusCode: 200 });
    });

    it("writes each request line with the fields of pino's other lines, one JSON object a line", async () => {
      logs.length = 0;
      await get('/healthz?probe="quoted"\\', { 'x-note': 'tab\there "quoted"' });
      const line = await (async () => {
        for (let i = 0; i < 50 && !logs.some((text) => text.includes('request completed')); i++)
          await new Promise((resolve) => setTimeout(resolve, 10));
        return logs.find((text) => text.includes('request completed')) ?? '';
      })();
      assert.ok(line.endsWith('}\n') && line.indexOf('\n') === line.length - 1, line);
      const entry = JSON.parse(line) as Record<string, unknown>;
      assert.deepEqual(Object.keys(entry), [
        'level',
        'time',
        'pid',
        'hostname',
        'reqId',
        'req',
        'res',
        'responseTime',
        'msg',
      ]);
      assert.equal(entry.level, 30);
      assert.ok(Math.abs(Number(entry.time) - Date.now()) < 60_000);
      assert.equal(entry.pid, process.pid);
      assert.equal(entry.hostname, hostname());
      assert.match(String(entry.reqId), /^req-/);
      assert.equal(typeof entry.responseTime, 'number');
      const req = entry.req as {
        method: string;
        url: string;
        remoteAddress: string;
        headers: Record<string, string>;
      };
      assert.equal(req.method, 'GET');
      assert.equal(req.url, '/healthz?probe=%22quoted%22\\');
      assert.equal(req.remoteAddress, '127.0.0.1');
      assert.equal(req.headers['x-note'], 'tab\there "quoted"');
      // The service's own lines (pino's) carry the same leading fields.
      app.log.warn("a line of pino's own");
      const own = JSON.parse(logs.at(-1) ?? '{}') as Record<string, unknown>;
      assert.deepEqual(Object.keys(own).slice(0, 4), ['level', 'time', 'pid', 'hostname']);
      assert.equal(own.hostname, entry.hostname);
    });
  }),
);
