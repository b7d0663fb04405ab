import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

const VOLUMES = [
  { n: 2, isbn: '9780439023498', title: 'Catching Fire', popularity: 500 },
  { n: 1, isbn: '9780439023481', title: 'The Hunger Games', popularity: 900 },
  { n: 3, isbn: '9780439023511', title: 'Mockingjay', popularity: 400 },
];

function jsonLd(page: string): Record<string, unknown> {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(page);
  assert.ok(match, 'JSON-LD');
  return JSON.parse(match[1] ?? 'null') as Record<string, unknown>;
}

describeEachDialect('series and author pages', (context) => {
  let t: TestApp;
  let firstSlug = '';
  before(async () => {
    t = await startTestApp(context.store(), {}, { clickFlushIntervalMs: 50 });
    for (const volume of VOLUMES) {
      await addCatalogEntry(context.store(), {
        isbn13: volume.isbn,
        title: volume.title,
        authors: ['Suzanne Collins'],
        popularity: volume.popularity,
        identifiers: { series: `The Hunger Games, #${volume.n}` },
      });
    }
    // A boxed set and another series whose name shares words: neither is a volume.
    await addCatalogEntry(context.store(), {
      isbn13: '9780545670319',
      title: 'The Hunger Games Trilogy Boxed Set',
      authors: ['Suzanne Collins'],
      identifiers: { series: 'The Hunger Games, #1-3' },
    });
    await addCatalogEntry(context.store(), {
      isbn13: '9780545663267',
      title: 'The Ballad of Songbirds and Snakes',
      authors: ['Suzanne Collins'],
      popularity: 100,
      identifiers: { series: 'The Hunger Games Prequel, #1' },
    });
    const created = await t.get('/isbn/9780439023481');
    firstSlug = (created.headers.get('location') ?? '').replace('/book/', '');
    assert.ok(firstSlug);
  });
  after(() => t.close());

  it('lists a series in reading order, linking created books and ISBN links for the rest', async () => {
    const response = await t.get('/series/the-hunger-games');
    assert.equal(response.status, 200);
    const page = await response.text();
    const titles = [...page.matchAll(/class="list-item__title">([^<]+)</g)].map((m) => m[1]);
    assert.deepEqual(titles, ['The Hunger Games', 'Catching Fire', 'Mockingjay']);
    assert.match(page, new RegExp(`href="/book/${firstSlug}"`));
    assert.match(page, /href="\/isbn\/9780439023498"/);
    assert.match(page, /href="\/isbn\/9780439023511"/);
    const ld = jsonLd(page);
    assert.equal(ld['@type'], 'BookSeries');
    assert.equal(ld.name, 'The Hunger Games');
    const parts = ld.hasPart as Array<{ name: string; position: number; url: string }>;
    assert.deepEqual(
      parts.map((part) => [part.position, part.name]),
      [
        [1, 'The Hunger Games'],
        [2, 'Catching Fire'],
        [3, 'Mockingjay'],
      ],
    );
    assert.equal(parts[0]?.url, `http://booklink.test/book/${firstSlug}`);
  });

  it('links the book page to its series (with its number) and its author', async () => {
    const page = await (await t.get(`/book/${firstSlug}`)).text();
    assert.match(page, /Book 1 of <a href="\/series\/the-hunger-games">The Hunger Games<\/a>/);
    assert.match(page, /<a class="author" href="\/author\/suzanne-collins">Suzanne Collins<\/a>/);
  });

  it("lists an author's books, most clicked first, then by the catalog's popularity", async () => {
    const mockingjay = await t.get('/isbn/9780439023511');
    const slug = (mockingjay.headers.get('location') ?? '').replace('/book/', '');
    const go = await t.get(`/go/${slug}/amazon`);
    assert.equal(go.status, 302);
    await t.services.clicks.flush();
    const response = await t.get('/author/suzanne-collins');
    assert.equal(response.status, 200);
    const page = await response.text();
    const titles = [...page.matchAll(/class="list-item__title">([^<]+)</g)].map((m) => m[1]);
    assert.deepEqual(titles.slice(0, 4), [
      'Mockingjay',
      'The Hunger Games',
      'Catching Fire',
      'The Ballad of Songbirds and Snakes',
    ]);
    const ld = jsonLd(page);
    assert.equal(ld['@type'], 'Person');
    assert.equal(ld.name, 'Suzanne Collins');
    assert.ok((ld.workExample as unknown[]).length >= 4);
  });

  it('lists the author and series pages of created books in the sitemap', async () => {
    const sitemap = await (await t.get('/sitemap.xml')).text();
    assert.match(sitemap, new RegExp(`<loc>http://booklink.test/book/${firstSlug}</loc>`));
    assert.match(sitemap, /<loc>http:\/\/booklink\.test\/author\/suzanne-collins<\/loc>/);
    assert.match(sitemap, /<loc>http:\/\/booklink\.test\/series\/the-hunger-games<\/loc>/);
    assert.equal(sitemap.match(/\/author\/suzanne-collins</g)?.length, 1);
  });

  it('sends an unknown name to a search instead of a dead end', async () => {
    const response = await t.get('/author/nobody-at-all');
    assert.equal(response.status, 302);
    assert.equal(response.headers.get('location'), '/search?q=nobody%20at%20all');
    assert.equal((await t.get('/series/no-such-series')).status, 302);
  });
});
