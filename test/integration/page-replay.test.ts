import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { after, before, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services/container.js';
import { BOT_UA, HUMAN_UA } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { addCatalogEntry } from '../support/factories.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw HTTP GET (or HEAD): the exact headers and bytes (fetch would decompress and merge them). */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = { method, headers: { 'user-agent': HUMAN_UA, ...headers } };
    const req = httpRequest(`${base}${path}`, options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const withoutDate = ({ date: _date, ...headers }: Answer['headers']) => headers;

interface LogLine {
  reqId: string;
  msg: string;
  req?: { method: string; url: string; host: string; remoteAddress: string; headers: Record<string, string> };
  res?: { statusCode: number };
  responseTime?: number;
}

/**
 * Plain visits of a cached book page are answered before Fastify with the bytes the first visit was
 * sent: the same status, headers and body, counted, measured and logged the same way.
 */
describeEachDialect('book page replay', (context) => {
  let app: FastifyInstance;
  let services: Services;
  let base = '';
  let slug = '';
  const lines: LogLine[] = [];

  const replays = async () => {
    const text = (await get(base, '/metrics')).body.toString();
    return Number(/^booklink_page_replays_total (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
  };
  const completed = (url: string) =>
    lines.filter((line) => line.msg === 'request completed' && line.req?.url === url);

  before(async () => {
    const config = loadConfig({
      BASE_URL: 'http://booklink.test',
      DATABASE_URL: 'sqlite::memory:',
      PROVIDERS: 'local',
      TRUST_PROXY: '127.0.0.1',
    });
    services = createServices(config, context.store(), { clickFlushIntervalMs: 50 });
    const stream = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
    app = await buildApp({ services, logger: stream });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      format: 'paperback',
    });
    const created = await get(base, '/isbn/9780141439518');
    slug = String(created.headers.location ?? '').replace('/book/', '');
    assert.ok(slug, 'the book was created');
  });
  after(async () => {
    await app.close();
    await services.close();
  });

  it('answers a repeat visit with the same status, headers and bytes, in every encoding', async () => {
    const before = await replays();
    for (const encoding of ['br', 'gzip', 'identity']) {
      const headers = { 'accept-encoding': encoding };
      const first = await get(base, `/book/${slug}`, headers);
      const again = await get(base, `/book/${slug}`, headers);
      assert.equal(first.status, 200);
      assert.equal(again.status, 200);
      assert.deepEqual(withoutDate(again.headers), withoutDate(first.headers));
      assert.ok(again.body.equals(first.body), `${encoding}: the bytes differ`);
      const html =
        encoding === 'br'
          ? brotliDecompressSync(again.body)
          : encoding === 'gzip'
            ? gunzipSync(again.body)
            : again.body;
      assert.match(html.toString(), /Pride and Prejudice/);
    }
    // Every hook's headers are there: the guards' policy, CORS, the cache and Vary headers.
    const replayed = await get(base, `/book/${slug}`, { 'accept-encoding': 'br' });
    assert.match(String(replayed.headers['content-security-policy']), /default-src/);
    assert.equal(replayed.headers['access-control-allow-origin'], '*');
    assert.equal(replayed.headers['cache-control'], 'public, max-age=300');
    assert.equal(replayed.headers.vary, 'Cookie, Accept-Language, Accept-Encoding');
    assert.equal(replayed.headers['content-encoding'], 'br');
    assert.equal((await replays()) - before, 4);
  });

  it('logs, counts and measures a replayed visit as Fastify does', async () => {
    const url = `/b/${slug}`;
    const forwarded = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-host': 'books.example.org' };
    await get(base, url, { ...forwarded, cookie: 'theme=dark' });
    await get(base, url, forwarded);
    await get(base, url, forwarded);
    await get(base, url, { ...forwarded, 'user-agent': BOT_UA });
    const [viaFastify, , replayed] = await eventually(async () => {
      const found = completed(url);
      return found.length === 4 ? found : undefined;
    });
    assert.ok(viaFastify && replayed);
    // The same fields, host and address read through the trusted proxy, the cookie censored in Fastify's.
    assert.deepEqual(Object.keys(replayed), Object.keys(viaFastify));
    assert.deepEqual({ ...replayed.req, headers: undefined }, { ...viaFastify.req, headers: undefined });
    assert.equal(replayed.req?.host, 'books.example.org');
    assert.equal(replayed.req?.remoteAddress, '203.0.113.9');
    assert.equal(viaFastify.req?.headers.cookie, '[redacted]');
    assert.equal(replayed.res?.statusCode, 200);
    assert.equal(typeof replayed.responseTime, 'number');
    const ids = completed(url).map((line) => line.reqId);
    assert.equal(new Set(ids).size, ids.length, `request ids repeat: ${ids.join(' ')}`);

    const metrics = (await get(base, '/metrics')).body.toString();
    const requests =
      /^booklink_http_requests_total\{method="GET",route="\/b\/:slug",status_class="2xx"\} (\d+)$/m.exec(
        metrics,
      );
    assert.equal(Number(requests?.[1]), 4, 'every visit is in the request metrics');
    // Counted by audience, the bot apart.
    await services.visits.flush();
    const visits = await context
      .store()
      .db.selectFrom('page_visits')
      .select(['audience', 'visits'])
      .execute();
    const byAudience = Object.fromEntries(visits.map((row) => [row.audience, Number(row.visits)]));
    assert.equal(byAudience.bot, 1);
    assert.ok((byAudience.reader ?? 0) >= 3, JSON.stringify(byAudience));
  });

  it('reports pipelined visits, sent only after the one before them, once each is sent', async () => {
    const url = `/book/${slug}`;
    await get(base, url);
    const before = await replays();
    const visit = `GET ${url} HTTP/1.1\r\nhost: booklink.test\r\nuser-agent: ${HUMAN_UA}\r\nx-forwarded-for: 198.51.100.7\r\n\r\n`;
    const received = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(base).port), '127.0.0.1');
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        text += chunk;
        if (text.split('</html>').length === 4) {
          socket.end();
          resolve(text);
        }
      });
      socket.on('error', reject);
      // Three requests in one write: the second and third answers wait in Node for the first's.
      socket.write(visit.repeat(3));
    });
    assert.equal(received.match(/^HTTP\/1\.1 200 OK\r\n/gm)?.length, 3);
    const reported = await eventually(async () => {
      const found = completed(url).filter((line) => line.req?.remoteAddress === '198.51.100.7');
      return found.length === 3 ? found : undefined;
    });
    assert.deepEqual(
      reported.map((line) => line.res?.statusCode),
      [200, 200, 200],
    );
    assert.equal((await replays()) - before, 3);
  });

  it('leaves to Fastify what it must decide: cookies, parameters, HEAD, a changed book', async () => {
    await get(base, `/book/${slug}`);
    const before = await replays();
    assert.equal((await get(base, `/book/${slug}`, { cookie: 'x=1' })).status, 200);
    const head = await get(base, `/book/${slug}`, {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal((await get(base, `/book/${slug}?template=compact`)).status, 200);
    assert.equal((await get(base, `/book/${slug}?template=compact`)).status, 200);
    assert.equal((await get(base, `/book/${slug}`, { referer: 'http://booklink.test' })).status, 403);
    // A declared body is the guards' to judge: a foreign charset is refused, as on any other route.
    const latin1 = { 'content-type': 'text/plain; charset=iso-8859-1' };
    assert.equal((await get(base, `/book/${slug}`, latin1)).status, 415);
    assert.equal((await get(base, '/book/no-such-book')).status, 404);
    assert.equal((await get(base, '/book/no-such-book')).status, 404);
    assert.equal(await replays(), before);

    // A change drops the kept response with the page: the next visit shows the new title.
    await context
      .store()
      .db.updateTable('books')
      .set({ title: 'Pride and Prejudice (Annotated)' })
      .where('slug', '=', slug)
      .execute();
    services.events.emit('book-changed', slug);
    const changed = await get(base, `/book/${slug}`, { 'accept-encoding': 'identity' });
    assert.match(changed.body.toString(), /Pride and Prejudice \(Annotated\)/);
    assert.equal(await replays(), before);
    const again = await get(base, `/book/${slug}`, { 'accept-encoding': 'identity' });
    assert.match(again.body.toString(), /Pride and Prejudice \(Annotated\)/);
    assert.equal(await replays(), before + 1);
  });
});
