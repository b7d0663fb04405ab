import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, it } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services/container.js';
import { HUMAN_UA } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry, inventedIsbn } from '../support/factories.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A raw HTTP GET, so a plain visit can reach the page replay (no cookie, exact headers). */
function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { headers: { 'user-agent': HUMAN_UA, accept: 'text/html', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = res.headers['content-encoding'] === 'br' ? brotliDecompressSync(body) : body;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: text.toString() });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const langOf = (page: string) => /<html lang="([a-z]+)">/.exec(page)?.[1];
const header = (answer: Answer, name: string) => String(answer.headers[name] ?? '');

/** Reader pages in the reader's language (issue 44), over real HTTP on both databases. */
describeEachDialect('reader languages', (context) => {
  let app: FastifyInstance;
  let services: Services;
  let base = '';
  let slug = '';

  const replays = async () => {
    const text = (await get(base, '/metrics')).text;
    return Number(/^booklink_page_replays_total (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
  };

  before(async () => {
    const config = loadConfig({
      BASE_URL: 'http://booklink.test',
      DATABASE_URL: 'sqlite::memory:',
      PROVIDERS: 'local',
      DEFAULT_LANGUAGE: 'en',
    });
    services = createServices(config, context.store(), { clickFlushIntervalMs: 50 });
    app = await buildApp({ services });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      format: 'paperback',
    });
    const created = await get(base, '/isbn/9780141439518');
    slug = header(created, 'location').replace('/book/', '');
    assert.ok(slug, 'the book was created');
  });
  after(async () => {
    await app.close();
    await services.close();
  });

  it('follows Accept-Language: lang attribute, Content-Language, Vary and the text', async () => {
    const home = await get(base, '/', { 'accept-language': 'de-AT,de;q=0.9,en;q=0.5' });
    assert.equal(home.status, 200);
    assert.equal(langOf(home.text), 'de');
    assert.equal(header(home, 'content-language'), 'de');
    const vary = header(home, 'vary').toLowerCase();
    assert.ok(vary.includes('accept-language') && vary.includes('cookie'), vary);
    assert.match(home.text, /Ein Link für jedes Buch/);
    const unknown = await get(base, '/', { 'accept-language': 'sv-SE, ru;q=0.8' });
    assert.equal(langOf(unknown.text), 'en', 'the operator default');
  });

  it('names the edition’s format in the reader’s language, in the details and on product links', async () => {
    const expected: Record<string, string> = {
      en: 'Paperback',
      de: 'Taschenbuch',
      fr: 'Broché',
      es: 'Tapa blanda',
      it: 'Copertina flessibile',
      nl: 'Paperback',
      pt: 'Capa mole',
      ja: 'ペーパーバック',
    };
    for (const [language, name] of Object.entries(expected)) {
      const page = await get(base, `/book/${slug}?lang=${language}`);
      const fact = /<dt>[^<]*<\/dt>\s*<dd>([^<]*)<\/dd>/g;
      const facts = [...page.text.matchAll(fact)].map((m) => m[1]);
      assert.ok(facts.includes(name), `${language}: the format fact reads ${name} (${facts.join(', ')})`);
      assert.match(page.text, new RegExp(`class="dest__kind">${name}`), `${language}: product link`);
      if (language !== 'en' && language !== 'nl') assert.doesNotMatch(page.text, />Paperback/, language);
    }
  });

  it('?lang= beats Accept-Language; book pages carry hreflang alternates and x-default', async () => {
    const page = await get(base, `/book/${slug}?lang=fr`, { 'accept-language': 'de' });
    assert.equal(page.status, 200);
    assert.equal(langOf(page.text), 'fr');
    assert.equal(header(page, 'content-language'), 'fr');
    assert.match(page.text, /<h2 id="where-title">Où le trouver<\/h2>/);
    for (const code of ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'ja'])
      assert.ok(
        page.text.includes(
          `<link rel="alternate" hreflang="${code}" href="http://booklink.test/book/${slug}?lang=${code}">`,
        ),
        code,
      );
    assert.ok(
      page.text.includes(
        `<link rel="alternate" hreflang="x-default" href="http://booklink.test/book/${slug}">`,
      ),
    );
  });

  it('the switcher sets a cookie and goes back, 303, to a same-origin path only', async () => {
    const switched = await get(base, `/language?lang=ja&back=${encodeURIComponent(`/book/${slug}?lang=de`)}`);
    assert.equal(switched.status, 303);
    assert.equal(header(switched, 'location'), `/book/${slug}`);
    const cookie = header(switched, 'set-cookie').split(';')[0] ?? '';
    assert.equal(cookie, 'booklink_lang=ja');
    const page = await get(base, `/book/${slug}`, { cookie, 'accept-language': 'de' });
    assert.equal(langOf(page.text), 'ja');
    assert.match(page.text, /入手先/);
    for (const hostile of ['https://evil.example/', '//evil.example/', '/\\evil.example']) {
      const answer = await get(base, `/language?lang=de&back=${encodeURIComponent(hostile)}`);
      assert.equal(answer.status, 303);
      assert.equal(header(answer, 'location'), '/', hostile);
    }
    assert.equal((await get(base, '/language?lang=xx&back=/')).status, 422);
    // Every page links the switcher, with the way back.
    assert.ok(page.text.includes(`href="/language?lang=de&amp;back=%2Fbook%2F${slug}"`));
  });

  it('two readers alternating on warm caches, the replay included, never see each other’s language', async () => {
    const before = await replays();
    const readers: Array<{ headers: Record<string, string>; lang: string; text: string }> = [
      { headers: { 'accept-language': 'de-DE,de;q=0.9' }, lang: 'de', text: 'Hier gibt es das Buch' },
      { headers: { 'accept-language': 'pt-BR,pt;q=0.9,en;q=0.8' }, lang: 'pt', text: 'Onde encontrar' },
      { headers: { cookie: 'booklink_lang=it' }, lang: 'it', text: 'Dove trovarlo' },
      { headers: { 'accept-language': 'en-GB' }, lang: 'en', text: 'Where to get it' },
    ];
    for (let round = 0; round < 3; round++) {
      for (const reader of readers) {
        for (const encoding of ['br', 'identity']) {
          for (const path of [`/book/${slug}`, `/b/${slug}`]) {
            const page = await get(base, path, { ...reader.headers, 'accept-encoding': encoding });
            assert.equal(page.status, 200);
            assert.equal(langOf(page.text), reader.lang, `${path} ${encoding} round ${round}`);
            assert.equal(header(page, 'content-language'), reader.lang);
            assert.ok(page.text.includes(reader.text), `${reader.lang}: ${path}`);
          }
        }
      }
    }
    assert.ok((await replays()) > before, 'plain visits were answered by the replay');
  });

  it('readers with their own language, country and favourite store, alternating on warm caches, never see each other’s page', async () => {
    const before = await replays();
    const has = (page: string, destination: string) => page.includes(`data-destination="${destination}"`);
    // A plain visit (replayed once warm), one whose cookies choose everything (and outvote its
    // Accept-Language), and an American reader.
    const readers: Array<{
      name: string;
      headers: Record<string, string>;
      lang: string;
      country: string;
      shop: string;
    }> = [
      {
        name: 'German',
        headers: { 'accept-language': 'de-DE,de;q=0.9' },
        lang: 'de',
        country: 'DE',
        shop: 'thalia',
      },
      {
        name: 'French reader in the UK with a favourite store',
        headers: {
          'accept-language': 'de-DE',
          cookie: 'booklink_lang=fr; booklink_country=GB; bl_fav=print:waterstones',
        },
        lang: 'fr',
        country: 'GB',
        shop: 'waterstones',
      },
      {
        name: 'American',
        headers: { 'accept-language': 'en-US' },
        lang: 'en',
        country: 'US',
        shop: 'barnes-noble',
      },
    ];
    const shops = readers.map((reader) => reader.shop);
    for (let round = 0; round < 3; round++) {
      for (const reader of readers) {
        for (const encoding of ['br', 'identity']) {
          const where = `${reader.name}, ${encoding}, round ${round}`;
          const page = await get(base, `/book/${slug}`, { ...reader.headers, 'accept-encoding': encoding });
          assert.equal(page.status, 200, where);
          assert.equal(langOf(page.text), reader.lang, where);
          assert.match(page.text, new RegExp(`data-country="${reader.country}"`), where);
          for (const shop of shops)
            assert.equal(has(page.text, shop), shop === reader.shop, `${where}: ${shop}`);
          const favourite = (reader.headers.cookie ?? '').includes('bl_fav');
          // A page ordered by a favourite store is the reader's own: never shared by a cache.
          assert.equal(
            header(page, 'cache-control'),
            favourite ? 'private, no-cache' : 'public, max-age=300',
            where,
          );
          // The short link sends the reader with a favourite straight to it; the others get the page.
          const short = await get(base, `/b/${slug}`, reader.headers);
          assert.equal(short.status, favourite ? 302 : 200, where);
          if (favourite) assert.match(header(short, 'location'), /\/go\/[^/]+\/waterstones/, where);
        }
      }
    }
    assert.ok((await replays()) > before, 'plain visits were answered by the replay');
  });

  it('unknown and malformed ISBNs answer in the reader’s language', async () => {
    const unknown = await get(base, `/isbn/${inventedIsbn(4242)}`, { 'accept-language': 'de' });
    assert.equal(unknown.status, 404);
    assert.equal(langOf(unknown.text), 'de');
    assert.match(unknown.text, /Dieses Buch kennen wir noch nicht/);
    assert.ok(unknown.text.includes(`value="${inventedIsbn(4242)}"`), 'the ISBN stays in the search box');
    assert.match(unknown.text, /href="https:\/\/search\.worldcat\.org\/search\?q=bn:/);
    assert.match(unknown.text, /action="\/search\/miss"/);
    assert.doesNotMatch(unknown.text, /Pages are created|>404</);
    const bad = await get(base, '/isbn/12345678901', { 'accept-language': 'es' });
    assert.equal(bad.status, 422);
    assert.equal(langOf(bad.text), 'es');
    assert.match(bad.text, /no es un ISBN/);
    // The SPEC 7 entries stay for programs in #validation-errors; the reader sees none of them.
    const visible = bad.text.replace(/<script[\s\S]*?<\/script>/g, '');
    assert.doesNotMatch(visible, /Value error|String should|>422</);
  });

  it('the embed data and iframe follow the reader’s language', async () => {
    const data = await get(base, `/embed/${slug}.json?lang=nl`, { accept: 'application/json' });
    const body = JSON.parse(data.text) as { language: string; text: { foot: string } };
    assert.equal(body.language, 'nl');
    assert.equal(body.text.foot, 'Sommige links kunnen een commissie opleveren.');
    const frame = await get(base, `/embed/${slug}`, { 'accept-language': 'ja' });
    assert.equal(langOf(frame.text), 'ja');
    assert.match(frame.text, /入手先/);
  });
});
