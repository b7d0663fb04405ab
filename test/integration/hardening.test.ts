import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices } from '../../src/services/container.js';
import { createApiKey } from '../../src/store/api-keys.js';
import { BOT_UA, HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { spec7Problems } from '../support/openapi-walk.js';
import { AdminClient, addUser } from './admin-support.js';

/** What a browser sends when following a link. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request written byte for byte on its own socket (absolute-form targets, huge lines). */
function sendRaw(t: TestApp, head: string, body = ''): Promise<RawResponse> {
  const port = Number(new URL(t.baseUrl).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
    socket.write(`${head}\r\nConnection: close\r\n\r\n${body}`);
  });
}

const get = (t: TestApp, path: string, headers: Record<string, string> = {}) =>
  fetch(`${t.baseUrl}${path}`, { redirect: 'manual', headers: { 'user-agent': HUMAN_UA, ...headers } });

async function expect422(response: Response, loc: Array<string | number>, label: string): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, 422, `${label}: ${response.status} ${text.slice(0, 300)}`);
  assert.match(response.headers.get('content-type') ?? '', /application\/json/, label);
  const body = JSON.parse(text) as { detail: Array<{ loc: unknown[]; type: string }> };
  assert.deepEqual(spec7Problems(body), [], label);
  assert.ok(
    body.detail.some((issue) => JSON.stringify(issue.loc) === JSON.stringify(loc)),
    `${label}: no entry at ${JSON.stringify(loc)} in ${text.slice(0, 300)}`,
  );
}

const NON_FINITE = ['Infinity', '-Infinity', 'NaN', '1e309', '-1e309', '9999999999', '%2BInfinity'];

describeEachDialect('hardening against hostile input', (context) =>
  describe('one app', () => {
    let t: TestApp;
    let admin: AdminClient;
    before(async () => {
      // A budget no test here reaches: these tests are about what each request gets back.
      t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '100000' }, { clickFlushIntervalMs: 20 });
      await addUser(context.store(), 'hardening@example.test', 'admin');
      admin = new AdminClient(t);
      const signedIn = await admin.login('hardening@example.test');
      assert.equal(signedIn.status, 303);
    });
    after(() => t.close());

    it('refuses non-finite and out-of-range integers in query, path and body with a 422', async () => {
      const json = { 'content-type': 'application/json' };
      for (const value of NON_FINITE) {
        const cases: Array<[string, Promise<Response>, Array<string | number>]> = [
          ['go sfid', get(t, `/go/some-book/amazon?sfid=${value}`), ['query', 'sfid']],
          ['sitemap page', get(t, `/sitemap.xml?page=${value}`), ['query', 'page']],
          ['book sfid', get(t, `/book/some-book?sfid=${value}`), ['query', 'sfid']],
          ['search limit', get(t, `/api/v1/search?q=dune&limit=${value}`), ['query', 'limit']],
          // A list's id is text (its public id); a book id in a list's path is still an integer.
          [
            'list book',
            fetch(`${t.baseUrl}/api/v1/lists/abc/books/${value}`, {
              method: 'DELETE',
              headers: { 'x-edit-token': 'x' },
            }),
            ['path', 'book_id'],
          ],
          [
            'vote',
            fetch(`${t.baseUrl}/api/v1/search/${value}/vote`, {
              method: 'POST',
              headers: json,
              body: JSON.stringify({ feedback: 'positive' }),
            }),
            ['path', 'sfid'],
          ],
        ];
        for (const [label, response, loc] of cases) await expect422(await response, loc, `${label}=${value}`);
        const audit = await admin.get(`/admin/audit?page=${value}`);
        assert.equal(audit.status, 422, `audit page=${value}: ${audit.body.slice(0, 200)}`);
      }
      // JSON has no Infinity, but 1e309 parses to it.
      const body = await fetch(`${t.baseUrl}/api/v1/lists`, {
        method: 'POST',
        headers: json,
        body: '{"name":"x","book_id":1e309}',
      });
      await expect422(body, ['body', 'book_id'], 'body 1e309');
    });

    it('applies the API rate limit, key check and usage count to absolute-form targets', async () => {
      const limited = await startTestApp(context.store(), { RATE_LIMIT_ANON: '3' });
      try {
        const absolute = (headers: string) =>
          sendRaw(
            limited,
            `GET http://booklink.test/api/v1/search?q=a&source=app-absolute HTTP/1.1\r\nHost: booklink.test\r\nUser-Agent: ${HUMAN_UA}${headers}`,
          );
        // The key check: a made-up key is refused (after being charged to the IP).
        const statuses = [(await absolute(`\r\nX-API-Key: bl_${'x'.repeat(32)}`)).status];
        for (let i = 0; i < 5; i++) statuses.push((await absolute('')).status);
        assert.deepEqual(statuses, [401, 200, 200, 429, 429, 429]);
        const { key } = await createApiKey(context.store().db, { name: 'absolute', scopes: [] });
        const keyed = await sendRaw(
          limited,
          `GET http://booklink.test/api/v1/search?q=a HTTP/1.1\r\nHost: booklink.test\r\nX-API-Key: ${key}`,
        );
        assert.equal(keyed.status, 200);
        assert.equal(keyed.headers['x-ratelimit-limit'], '120');
        // A 404 under /api/ in absolute form is still the API: JSON, not a page.
        const missing = await sendRaw(limited, 'GET http://booklink.test/api/v1/nothing HTTP/1.1\r\nHost: x');
        assert.match(missing.headers['content-type'] ?? '', /application\/json/);
      } finally {
        await limited.close();
      }
      // Closing the app flushed its usage counts.
      const counted = await sql<{
        n: number | string;
      }>`select coalesce(sum(count), 0) as n from api_usage where source = 'app-absolute'`.execute(
        context.store().db,
      );
      assert.equal(Number(counted.rows[0]?.n), 2, 'the two admitted calls are counted');
    });

    it('answers 422 to a browser with a page saying what was wrong, JSON to everyone else', async () => {
      const cases: Array<[string, RegExp]> = [
        ['/isbn/123', /at least 10 characters/],
        ['/isbn/9780439023482', /check digit/i],
        [`/search?q=${'q'.repeat(600)}`, /at most 500 characters/],
      ];
      for (const [path, says] of cases) {
        const page = await get(t, path, { accept: BROWSER_ACCEPT });
        assert.equal(page.status, 422, path);
        assert.match(page.headers.get('content-type') ?? '', /text\/html/, path);
        const html = await page.text();
        assert.match(html, /<header/, `${path}: the site's layout`);
        assert.match(html, /<form[^>]+action="\/search"/, `${path}: a search box`);
        assert.match(html, says, path);
        assert.match(html, /name="viewport"/, `${path}: fits a phone`);
        const embedded = /<script type="application\/json" id="validation-errors">(.*?)<\/script>/s.exec(
          html,
        );
        assert.ok(embedded, `${path}: the SPEC 7 body inside the page`);
        assert.deepEqual(spec7Problems(JSON.parse(embedded[1] ?? '')), [], path);

        const asked = await get(t, path, { accept: 'application/json' });
        assert.equal(asked.status, 422, path);
        assert.deepEqual(spec7Problems(await asked.json()), [], path);
        const any = await get(t, path);
        assert.match(any.headers.get('content-type') ?? '', /application\/json/, `${path}: */* gets JSON`);
      }
      const api = await get(t, `/api/v1/search?q=${'q'.repeat(600)}`, { accept: BROWSER_ACCEPT });
      assert.match(api.headers.get('content-type') ?? '', /application\/json/, 'always JSON under /api/');
    });

    it("answers Fastify's and Node's own refusals in the documented format", async () => {
      const long = 'a'.repeat(20_000);
      const apiLong = await sendRaw(t, `GET /api/v1/search?q=${long} HTTP/1.1\r\nHost: x`);
      assert.equal(apiLong.status, 414);
      assert.equal(typeof (JSON.parse(apiLong.body) as { detail: unknown }).detail, 'string');
      const pageLong = await sendRaw(t, `GET /search?q=${long} HTTP/1.1\r\nHost: x`);
      assert.equal(pageLong.status, 414);
      assert.match(pageLong.headers['content-type'] ?? '', /text\/html/);
      assert.match(pageLong.body, /<form[^>]+action="\/search"/);
      const apiHeaders = await sendRaw(t, `GET /api/v1/search?q=a HTTP/1.1\r\nHost: x\r\nX-Big: ${long}`);
      assert.equal(apiHeaders.status, 431);
      assert.ok(JSON.parse(apiHeaders.body).detail);
      const pageHeaders = await sendRaw(t, `GET /book/x HTTP/1.1\r\nHost: x\r\nX-Big: ${long}`);
      assert.equal(pageHeaders.status, 431);
      assert.match(pageHeaders.headers['content-type'] ?? '', /text\/html/);
      const malformed = await sendRaw(t, 'GET /api/v1/search?q=a HTTP/1.1\r\nHost: x\r\nno colon here');
      assert.equal(malformed.status, 400);
      assert.ok(JSON.parse(malformed.body).detail);
      const badUrl = await sendRaw(t, 'GET /api/v1/search/%E0%A4%A HTTP/1.1\r\nHost: x');
      assert.equal(badUrl.status, 400, badUrl.body);
      assert.equal(typeof JSON.parse(badUrl.body).detail, 'string', badUrl.body);
      const badPageUrl = await sendRaw(t, 'GET /book/%E0%A4%A HTTP/1.1\r\nHost: x');
      assert.equal(badPageUrl.status, 400);
      assert.match(badPageUrl.headers['content-type'] ?? '', /text\/html/);
      const badJson = await fetch(`${t.baseUrl}/api/v1/lists`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":',
      });
      assert.equal(badJson.status, 422);
      assert.deepEqual(spec7Problems(await badJson.json()), []);
    });

    it('answers refusals before routing in the reader’s language, else the operator’s default', async () => {
      const long = 'a'.repeat(20_000);
      const langOf = (body: string) => /<html lang="([^"]+)"/.exec(body)?.[1];
      const tooLong = await sendRaw(
        t,
        `GET /search?q=${long} HTTP/1.1\r\nHost: x\r\nAccept-Language: de-DE,de;q=0.9`,
      );
      assert.equal(tooLong.status, 414);
      // The header after the overlong request line arrived with it: the page is German.
      assert.equal(langOf(tooLong.body), 'de');
      assert.match(tooLong.body, /Adresse zu lang/);
      const bigHeaders = await sendRaw(
        t,
        `GET /book/x HTTP/1.1\r\nHost: x\r\nAccept-Language: fr-FR,fr;q=0.9\r\nX-Big: ${long}`,
      );
      assert.equal(bigHeaders.status, 431);
      assert.equal(bigHeaders.headers['content-language'], 'fr');
      assert.equal(langOf(bigHeaders.body), 'fr');
      assert.match(bigHeaders.body, /Requête trop volumineuse/);
      assert.doesNotMatch(bigHeaders.body, /Request Header Fields Too Large|headers are too large/);
      const malformed = await sendRaw(
        t,
        'GET /book/x HTTP/1.1\r\nHost: x\r\nAccept-Language: ja\r\nno colon here',
      );
      assert.equal(malformed.status, 400);
      assert.equal(langOf(malformed.body), 'ja');
      assert.match(malformed.body, /リクエストを読み取れませんでした/);
      const cookie = await sendRaw(
        t,
        `GET /book/x HTTP/1.1\r\nHost: x\r\nCookie: booklink_lang=nl\r\nAccept-Language: de\r\nX-Big: ${long}`,
      );
      assert.equal(langOf(cookie.body), 'nl', 'the switcher’s cookie before Accept-Language');
      const badPageUrl = await sendRaw(t, 'GET /book/%E0%A4%A HTTP/1.1\r\nHost: x\r\nAccept-Language: es-ES');
      assert.equal(badPageUrl.status, 400);
      assert.equal(badPageUrl.headers['content-language'], 'es');
      assert.equal(langOf(badPageUrl.body), 'es');
      assert.match(badPageUrl.body, /no es un texto válido/);
      const english = await sendRaw(t, 'GET /book/%E0%A4%A HTTP/1.1\r\nHost: x');
      assert.equal(langOf(english.body), 'en');
      assert.match(english.body, /not valid text/);
    });

    it('keeps raw control characters out of page text and the <title>', async () => {
      const response = await get(t, '/search?q=%07bell%1B%5B31mred%7Fdel%C2%9Bcsi', {
        accept: BROWSER_ACCEPT,
      });
      const html = await response.text();
      const title = /<title>(.*?)<\/title>/s.exec(html)?.[1] ?? '';
      assert.match(title, /bell/);
      assert.doesNotMatch(html, /[^\P{Cc}\t\n\r]/u);
      // A NUL is refused (422); the page that says so does not carry it either.
      const nul = await get(t, '/search?q=a%00b%07', { accept: BROWSER_ACCEPT });
      assert.equal(nul.status, 422);
      assert.doesNotMatch(await nul.text(), /[^\P{Cc}\t\n\r]/u);
    });

    it('sends no HSTS over plain HTTP, and forbids framing of pages by default', async () => {
      const page = await get(t, '/', { accept: BROWSER_ACCEPT });
      assert.equal(page.headers.get('strict-transport-security'), null);
      assert.match(page.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      assert.equal(page.headers.get('x-frame-options'), 'DENY');
    });
  }),
);

describeEachDialect('hardening of the deployment settings', (context) =>
  describe('several apps', () => {
    const started: TestApp[] = [];
    const start = async (env: Record<string, string>) => {
      const t = await startTestApp(context.store(), env);
      started.push(t);
      return t;
    };
    after(async () => {
      for (const t of started) await t.close();
    });

    it('sends HSTS when BASE_URL is https, and lets a route allow framing', async () => {
      const config = loadConfig({ BASE_URL: 'https://books.example', PROVIDERS: 'local' });
      const services = createServices(config, context.store());
      const app = await buildApp({ services });
      app.get('/test/embed', { config: { frameAncestors: '*' } }, async (_request, reply) =>
        reply.type('text/html; charset=utf-8').send('<!doctype html><p>embed</p>'),
      );
      const address = await app.listen({ port: 0, host: '127.0.0.1' });
      const t: TestApp = {
        app,
        services,
        store: context.store(),
        baseUrl: address,
        get: (path) => get(t, path),
        close: async () => {
          await app.close();
          await services.close();
        },
      };
      started.push(t);
      const page = await get(t, '/');
      assert.match(page.headers.get('strict-transport-security') ?? '', /max-age=\d{7,}/);
      const api = await get(t, '/api/v1/search?q=a');
      assert.match(api.headers.get('strict-transport-security') ?? '', /max-age/);
      const embed = await get(t, '/test/embed');
      assert.match(embed.headers.get('content-security-policy') ?? '', /frame-ancestors \*/);
      assert.equal(embed.headers.get('x-frame-options'), null);
    });

    it('does not let a spoofed X-Forwarded-For buy fresh rate-limit budgets', async () => {
      const spoof = (n: number, realClient?: string) => ({
        'x-forwarded-for': [`203.0.113.${n}`, '127.0.0.1', ...(realClient ? [realClient] : [])].join(', '),
      });
      const burst = async (t: TestApp, headers: (n: number) => Record<string, string>) => {
        const statuses: number[] = [];
        for (let n = 1; n <= 6; n++) statuses.push((await get(t, '/api/v1/search?q=a', headers(n))).status);
        return statuses;
      };
      // One proxy hop: the client is the address the proxy appended, whatever stands left of it.
      const hops = await start({ RATE_LIMIT_ANON: '3', TRUST_PROXY: '1' });
      assert.deepEqual(await burst(hops, (n) => spoof(n)), [200, 200, 200, 429, 429, 429]);
      // Private-network proxies (`true`) or a list: the first public address from the right is the client.
      for (const trust of ['true', '127.0.0.1, 10.0.0.0/8']) {
        const proxied = await start({ RATE_LIMIT_ANON: '3', TRUST_PROXY: trust });
        assert.deepEqual(
          await burst(proxied, (n) => spoof(n, '198.51.100.9')),
          [200, 200, 200, 429, 429, 429],
        );
        const other = await get(proxied, '/api/v1/search?q=a', spoof(1, '198.51.100.10'));
        assert.equal(other.status, 200, `${trust}: another real client has its own budget`);
      }
    });

    it('serves /metrics only with METRICS_TOKEN as a Bearer token, else only to a local scraper', async () => {
      const token = 'metrics-token-0123456789';
      const guarded = await start({ METRICS_TOKEN: token });
      assert.equal((await get(guarded, '/metrics')).status, 401);
      assert.equal(
        (await get(guarded, '/metrics', { authorization: 'Bearer wrong-token-0123456789' })).status,
        401,
      );
      const scraped = await get(guarded, '/metrics', {
        authorization: `Bearer ${token}`,
        'user-agent': BOT_UA,
      });
      assert.equal(scraped.status, 200);
      assert.match(await scraped.text(), /booklink_http_requests_total/);

      const open = await start({ TRUST_PROXY: 'true' });
      assert.equal((await get(open, '/metrics')).status, 200, 'a scraper on this host');
      const proxied = await get(open, '/metrics', { 'x-forwarded-for': '198.51.100.1' });
      assert.equal(proxied.status, 404, 'through a proxy, without a token');
    });
  }),
);
