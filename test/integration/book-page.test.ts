import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { BOT_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

function goLinks(page: string): Array<{ href: string; group: string; destination: string }> {
  const links: Array<{ href: string; group: string; destination: string }> = [];
  for (const match of page.matchAll(/<a\b[^>]*href="(\/go\/[^"]+)"[^>]*>/g)) {
    const tag = match[0];
    links.push({
      href: (match[1] ?? '').replace(/&amp;/g, '&'),
      group: /data-group="([^"]+)"/.exec(tag)?.[1] ?? '',
      destination: /data-destination="([^"]+)"/.exec(tag)?.[1] ?? '',
    });
  }
  return links;
}

async function clickCount(t: TestApp, bookId: number): Promise<number> {
  const rows = await t.store.db.selectFrom('clicks').select('id').where('book_id', '=', bookId).execute();
  return rows.length;
}

describeEachDialect('book page and /go/ links', (context) => {
  let t: TestApp;
  let slug = '';
  before(async () => {
    t = await startTestApp(
      context.store(),
      { AFFILIATE_TAGS: 'amazon=booklinktest-20,bookshop=4242' },
      { clickFlushIntervalMs: 50 },
    );
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      isbn10: '0141439513',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      publishedDate: '2002-12-31',
      publisher: 'Penguin Classics',
      format: 'paperback',
    });
    await addCatalogEntry(context.store(), {
      source: 'gutenberg',
      entryKey: 'gutenberg:1342',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      identifiers: { gutenberg: '1342' },
    });
    const created = await t.get('/isbn/9780141439518');
    slug = (created.headers.get('location') ?? '').replace('/book/', '');
  });
  after(() => t.close());

  it('shows at least 15 destination links across at least 5 groups, all through /go/', async () => {
    const response = await t.get(`/book/${slug}`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    const page = await response.text();
    assert.match(page, /Pride and Prejudice/);
    assert.match(page, /Jane Austen/);
    const links = goLinks(page);
    assert.ok(links.length >= 15, `only ${links.length} links`);
    const groups = new Set(links.map((link) => link.group));
    assert.ok(groups.size >= 5, `groups: ${[...groups].join(', ')}`);
    // The Gutenberg copy is confirmed by the catalogue, so the free group offers it.
    assert.ok(links.some((link) => link.destination.includes('gutenberg') && link.group === 'free'));
    assert.match(page, new RegExp(`<link rel="canonical" href="http://booklink.test/book/${slug}"`));
    assert.match(page, /application\/ld\+json/);
    assert.match(page, /og:title/);
  });

  it('logs one click per /go/ visit and lands on the destination with the affiliate tag', async () => {
    const page = await (await t.get(`/book/${slug}`)).text();
    const links = goLinks(page);
    const book = await t.store.db
      .selectFrom('books')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    const before = await clickCount(t, Number(book.id));
    for (const link of links) {
      const response = await t.get(link.href);
      assert.equal(response.status, 302, link.href);
      const location = new URL(response.headers.get('location') ?? '');
      assert.equal(location.protocol, 'https:', link.href);
      if (link.destination === 'amazon') assert.equal(location.searchParams.get('tag'), 'booklinktest-20');
      if (link.destination === 'bookshop') assert.match(location.pathname, /^\/a\/4242\/9780141439518/);
    }
    await t.services.clicks.flush();
    assert.equal((await clickCount(t, Number(book.id))) - before, links.length);
  });

  it('does not count bot clicks and refuses unknown destinations', async () => {
    const book = await t.store.db
      .selectFrom('books')
      .select('id')
      .where('slug', '=', slug)
      .executeTakeFirstOrThrow();
    await t.services.clicks.flush();
    const before = await clickCount(t, Number(book.id));
    const bot = await t.get(`/go/${slug}/amazon`, { 'user-agent': BOT_UA });
    assert.equal(bot.status, 302);
    await t.services.clicks.flush();
    assert.equal(await clickCount(t, Number(book.id)), before);
    assert.equal((await t.get(`/go/${slug}/evil-example`)).status, 404);
    assert.equal((await t.get('/go/no-such-book/amazon')).status, 404);
  });

  it('serves /b/{slug} in full with the canonical /book/ URL, and 404 for unknown slugs', async () => {
    const short = await t.get(`/b/${slug}`);
    assert.equal(short.status, 200);
    assert.match(await short.text(), new RegExp(`rel="canonical" href="http://booklink.test/book/${slug}"`));
    const missing = await t.get('/book/no-such-book');
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get('content-type') ?? '', /text\/html/);
    const tooLong = await t.get(`/book/${'x'.repeat(81)}`);
    assert.equal(tooLong.status, 422);
  });

  it('honours use, top, template and sfid, and ignores unknown values', async () => {
    const used = goLinks(await (await t.get(`/book/${slug}?use=worldcat`)).text());
    assert.equal(used[0]?.destination, 'worldcat');
    // Pinned destinations lead their groups, and their groups come first in the order given.
    const topped = goLinks(await (await t.get(`/book/${slug}?top=abebooks,kobo`)).text());
    assert.equal(topped[0]?.destination, 'abebooks');
    const firstOfSecondGroup = topped.find((link) => link.group !== topped[0]?.group);
    assert.equal(firstOfSecondGroup?.destination, 'kobo');
    const compact = await (await t.get(`/book/${slug}?template=compact`)).text();
    assert.match(compact, /data-template="compact"/);
    const unknown = await t.get(`/book/${slug}?template=nope&use=nowhere&top=`);
    assert.equal(unknown.status, 200);
    assert.match(await unknown.text(), /data-template="default"/);
    const attributed = goLinks(await (await t.get(`/book/${slug}?sfid=77`)).text());
    assert.ok(attributed.every((link) => link.href.endsWith('?sfid=77')));
    assert.equal((await t.get(`/book/${slug}?sfid=abc`)).status, 422);
  });
  it('lists the other editions of the work, the canonical one first', async () => {
    await addCatalogEntry(context.store(), {
      isbn13: '9780679783268',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      publishedDate: '2000-10-10',
      format: 'hardcover',
    });
    const created = await t.get('/isbn/9780679783268');
    const hardcover = (created.headers.get('location') ?? '').replace('/book/', '');
    assert.notEqual(hardcover, slug);
    const { db } = context.store();
    const row = await db
      .selectFrom('books')
      .select(['id', 'work_id'])
      .where('slug', '=', hardcover)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('works')
      .set({ canonical_book_id: row.id })
      .where('id', '=', Number(row.work_id))
      .execute();
    t.services.events.emit('book-changed', slug);
    const page = await (await t.get(`/book/${slug}`)).text();
    const editions = page.slice(page.indexOf('class="edition-list"'));
    assert.ok(
      editions.indexOf(`/book/${hardcover}`) < editions.indexOf('This edition'),
      'canonical edition first',
    );
    assert.match(editions, /Recommended edition/);
  });
  it("shows the reader's country storefront and sends /go/ there with that storefront's tag", async () => {
    const byQuery = goLinks(await (await t.get(`/book/${slug}?country=GB`)).text());
    const amazon = byQuery.find((link) => link.destination === 'amazon');
    assert.equal(amazon?.href, `/go/${slug}/amazon?country=GB`);
    const worldcat = byQuery.find((link) => link.destination === 'worldcat');
    assert.equal(worldcat?.href, `/go/${slug}/worldcat`, 'stores without storefronts keep plain links');
    const go = await t.get(amazon?.href ?? '');
    // Only amazon=booklinktest-20 is configured: a US tag earns nothing on amazon.co.uk, so none is added.
    assert.equal(go.headers.get('location'), 'https://www.amazon.co.uk/dp/0141439513');
    const byLanguage = goLinks(
      await (await t.get(`/book/${slug}`, { 'accept-language': 'de-DE,de;q=0.9' })).text(),
    );
    assert.equal(
      byLanguage.find((link) => link.destination === 'amazon')?.href,
      `/go/${slug}/amazon?country=DE`,
    );
    const byCdn = await t.get(`/go/${slug}/kobo`, { 'cf-ipcountry': 'FR' });
    assert.match(
      byCdn.headers.get('location') ?? '',
      /^https:\/\/www\.kobo\.com\/fr\/fr\/search\?query=9780141439518/,
    );
    assert.equal((await t.get(`/book/${slug}?country=GBR`)).status, 422);
  });
});
