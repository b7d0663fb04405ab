import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { type Click, openClickJournal } from '../../src/services/click-recorder.js';
import { createServices, type Services } from '../../src/services/container.js';
import type { Store } from '../../src/store/db.js';
import { BOT_UA, HUMAN_UA } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { addCatalogEntry } from '../support/factories.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** A raw HTTP GET (or HEAD): the exact headers sent (fetch would merge them). */
function get(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = { method, headers: { 'user-agent': HUMAN_UA, ...headers } };
    const req = httpRequest(`${base}${path}`, options, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The `/metrics` text (a local scrape needs no token). */
function metricsOf(base: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpRequest(`${base}/metrics`, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve(body));
    })
      .on('error', reject)
      .end();
  });
}

const withoutDate = ({ date: _date, ...headers }: Answer['headers']) => headers;

interface LogLine {
  reqId: string;
  msg: string;
  req?: { method: string; url: string; host: string; remoteAddress: string };
  res?: { statusCode: number };
  responseTime?: number;
}

const CAP = 5;

interface Running {
  app: FastifyInstance;
  services: Services;
  base: string;
  lines: LogLine[];
  close(): Promise<void>;
}

async function start(store: Store, overrides: Parameters<typeof createServices>[2] = {}): Promise<Running> {
  const config = loadConfig({
    BASE_URL: 'http://booklink.test',
    DATABASE_URL: 'sqlite::memory:',
    PROVIDERS: 'local',
    TRUST_PROXY: '127.0.0.1',
    WRITE_LIMIT_CLICKS: String(CAP),
  });
  const services = createServices(config, store, { clickFlushIntervalMs: 50, ...overrides });
  const lines: LogLine[] = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) };
  const app = await buildApp({ services, logger: stream });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    services,
    base,
    lines,
    close: async () => {
      await app.close();
      await services.close();
    },
  };
}

/**
 * Plain clicks of a `/go/` link are answered before Fastify with the 302 the first was sent, and
 * counted exactly as the route counts them.
 */
describeEachDialect('click replay', (context) => {
  let running: Running;
  let base = '';
  let slug = '';
  let bookId = 0;
  let address = 0;
  /** A reader's own address, through the trusted proxy: every test its own, for the write cap. */
  const reader = () => ({ 'x-forwarded-for': `203.0.113.${++address}` });

  const replays = async () => {
    const text = await metricsOf(base);
    return Number(/^booklink_go_replays_total (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
  };
  const clicks = async () => {
    await running.services.clicks.flush();
    await running.services.clicks.flush();
    const rows = await context
      .store()
      .db.selectFrom('clicks')
      .select(['book_id', 'destination_id', 'sfid', 'country', 'referrer_host', 'partner_id', 'src'])
      .select(['storefront', 'tag_kind'])
      .orderBy('id')
      .execute();
    return rows;
  };

  before(async () => {
    running = await start(context.store());
    base = running.base;
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      format: 'paperback',
    });
    const created = await get(base, '/isbn/9780141439518');
    slug = String(created.headers.location ?? '').replace('/book/', '');
    assert.ok(slug, 'the book was created');
    const row = await context
      .store()
      .db.selectFrom('books')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    bookId = Number(row.id);
  });
  after(async () => {
    await running.close();
  });

  it('answers a repeat click with the same status and headers, and stores the same click', async () => {
    const headers = {
      ...reader(),
      referer: 'https://blog.example.org/reviews/1',
      'accept-language': 'de-DE',
    };
    const before = await replays();
    const rowsBefore = (await clicks()).length;
    const first = await get(base, `/go/${slug}/amazon`, headers);
    assert.equal(await replays(), before, 'the first click goes through Fastify');
    const again = await get(base, `/go/${slug}/amazon`, headers);
    assert.equal(first.status, 302);
    assert.equal(again.status, 302);
    assert.deepEqual(withoutDate(again.headers), withoutDate(first.headers));
    assert.match(String(again.headers.location), /^https:\/\/www\.amazon\.de\//);
    assert.equal(again.headers['cache-control'], 'no-store');
    assert.equal(again.headers['referrer-policy'], 'no-referrer-when-downgrade');
    assert.equal(again.headers['x-content-type-options'], 'nosniff');
    assert.equal(again.headers['access-control-allow-origin'], '*');
    assert.equal(await replays(), before + 1);

    const rows = (await clicks()).slice(rowsBefore);
    assert.equal(rows.length, 2);
    assert.deepEqual(rows[1], rows[0]);
    assert.equal(Number(rows[0]?.book_id), bookId);
    assert.equal(rows[0]?.country, 'DE');
    assert.equal(rows[0]?.referrer_host, 'blog.example.org');
    assert.equal(rows[0]?.partner_id, null);
    assert.equal(rows[0]?.src, null);
    assert.equal(rows[0]?.sfid, null);
    assert.equal(rows[0]?.storefront, 'DE');
  });

  it('logs and measures a replayed click as Fastify does', async () => {
    const headers = { ...reader(), 'x-forwarded-host': 'books.example.org' };
    const url = `/go/${slug}/worldcat`;
    await get(base, url, headers);
    const before = await replays();
    await get(base, url, headers);
    assert.equal(await replays(), before + 1, 'the second was replayed');
    const completed = await eventually(async () => {
      const found = running.lines.filter((line) => line.msg === 'request completed' && line.req?.url === url);
      return found.length === 2 ? found : undefined;
    });
    const [viaFastify, replayed] = completed;
    assert.ok(viaFastify && replayed);
    assert.deepEqual(Object.keys(replayed), Object.keys(viaFastify));
    assert.deepEqual({ ...replayed.req, headers: undefined }, { ...viaFastify.req, headers: undefined });
    assert.equal(replayed.req?.host, 'books.example.org');
    assert.equal(replayed.req?.remoteAddress, headers['x-forwarded-for']);
    assert.equal(replayed.res?.statusCode, 302);
    assert.notEqual(replayed.reqId, viaFastify.reqId);
    const metrics = await metricsOf(base);
    const counted =
      /^booklink_http_requests_total\{method="GET",route="\/go\/:slug\/:destination",status_class="3xx"\} (\d+)$/m.exec(
        metrics,
      );
    assert.ok(Number(counted?.[1]) >= 2, 'the replayed clicks are in the request metrics');
  });

  it('answers a bot from the replay without storing its click', async () => {
    const headers = reader();
    await get(base, `/go/${slug}/audible`, headers);
    const rowsBefore = (await clicks()).length;
    const before = await replays();
    const bot = await get(base, `/go/${slug}/audible`, { ...headers, 'user-agent': BOT_UA });
    assert.equal(bot.status, 302);
    assert.equal(await replays(), before + 1);
    assert.equal((await clicks()).length, rowsBefore, 'no click is stored for a bot');
  });

  it('leaves to Fastify cookies, parameters, another country, HEAD and unknown links', async () => {
    const headers = reader();
    const url = `/go/${slug}/amazon`;
    const us = await get(base, url, headers);
    await get(base, url, headers);
    const before = await replays();
    assert.equal((await get(base, url, { ...headers, cookie: 'x=1' })).status, 302);
    assert.equal((await get(base, `${url}?src=qr`, headers)).status, 302);
    assert.equal((await get(base, `${url}?src=qr`, headers)).status, 302);
    assert.equal((await get(base, url, headers, 'HEAD')).status, 302);
    assert.equal((await get(base, url, { ...headers, referer: 'http://booklink.test' })).status, 403);
    assert.equal((await get(base, `/go/${slug}/no-such-shop`, headers)).status, 404);
    assert.equal((await get(base, `/go/${slug}/no-such-shop`, headers)).status, 404);
    const uk = await get(base, url, { ...headers, 'accept-language': 'en-GB' });
    assert.equal(await replays(), before, 'none of these was replayed');
    assert.match(String(uk.headers.location), /^https:\/\/www\.amazon\.co\.uk\//);
    assert.notEqual(uk.headers.location, us.headers.location);
    // The country's own answer is replayed from now on, not the other's.
    const ukAgain = await get(base, url, { ...headers, 'accept-language': 'en-GB' });
    assert.equal(ukAgain.headers.location, uk.headers.location);
    assert.equal(await replays(), before + 1);
  });

  it('drops the kept answer on a destination change and on a book change', async () => {
    const headers = reader();
    const url = `/go/${slug}/worldcat`;
    const first = await get(base, url, headers);
    await get(base, url, headers);
    let before = await replays();
    await context
      .store()
      .db.updateTable('destinations')
      .set({ url_template: 'https://search.worldcat.org/search?q=bn:{isbn13}&edition=changed' })
      .where('slug', '=', 'worldcat')
      .execute();
    running.services.events.emit('destinations-changed');
    const changed = await get(base, url, headers);
    assert.notEqual(changed.headers.location, first.headers.location);
    assert.match(String(changed.headers.location), /edition=changed/);
    assert.equal(await replays(), before, 'the change went through Fastify');
    assert.equal((await get(base, url, headers)).headers.location, changed.headers.location);
    assert.equal(await replays(), before + 1);

    const audible = `/go/${slug}/audible`;
    await get(base, audible, headers);
    await get(base, audible, headers);
    before = await replays();
    await context
      .store()
      .db.updateTable('books')
      .set({ title: 'Pride and Prejudice Annotated' })
      .where('slug', '=', slug)
      .execute();
    running.services.events.emit('book-changed', slug);
    const retitled = await get(base, audible, headers);
    assert.match(String(retitled.headers.location), /Annotated/);
    assert.equal(await replays(), before);
  });

  it('holds the write cap of an address through the replay', async () => {
    const headers = reader();
    const url = `/go/${slug}/kindle`;
    const rowsBefore = (await clicks()).length;
    const before = await replays();
    for (let i = 0; i < CAP + 3; i += 1) assert.equal((await get(base, url, headers)).status, 302);
    assert.equal(await replays(), before + CAP + 2, 'all but the first were replayed');
    assert.equal((await clicks()).length - rowsBefore, CAP, 'only the cap of clicks is stored');
    // Another address still counts.
    await get(base, url, reader());
    assert.equal((await clicks()).length - rowsBefore, CAP + 1);
  });

  describe('with the click journal', () => {
    let journaled: Running;
    let dir = '';
    /** While set, every journaled click waits for it before it is durable. */
    let gate: Promise<void> | null = null;
    let appended = 0;

    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'booklink-go-replay-'));
      const journal = await openClickJournal(dir, 'always');
      const append = journal.append.bind(journal);
      journal.append = (record: Click) => {
        appended += 1;
        const { seq, durable } = append(record);
        const held = gate;
        return { seq, durable: held ? held.then(() => durable) : durable };
      };
      journaled = await start(context.store(), { clickJournal: journal });
    });
    after(async () => {
      await journaled.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('sends the replayed redirect only once its click is journaled', async () => {
      const url = `/go/${slug}/amazon`;
      await get(journaled.base, url);
      let release: () => void = () => undefined;
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const journaledBefore = appended;
      let answered = false;
      const answer = get(journaled.base, url).then((result) => {
        answered = true;
        return result;
      });
      await eventually(async () => (appended > journaledBefore ? true : undefined));
      // The click is in the journal's hands and its write is held: the redirect has not been sent.
      for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
      assert.equal(answered, false, 'the redirect waits for the journal');
      gate = null;
      release();
      assert.equal((await answer).status, 302);
      const metrics = await metricsOf(journaled.base);
      assert.match(metrics, /^booklink_go_replays_total 1$/m, 'the held click was a replayed one');
    });
  });
});
