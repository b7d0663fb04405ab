import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { extract, type Fetcher } from '@extractus/oembed-extractor';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

const BASE = 'http://booklink.test';
const ISBN = '9780141439518';

/**
 * An oEmbed consumer from npm, as a blog engine uses one: given a book link it knows no provider for,
 * it reads the page, follows the page's `<link rel="alternate" type="application/json+oembed">` and
 * reads the card. The test app's BASE_URL host is not in DNS, so its fetch goes to the app on
 * 127.0.0.1, path and query unchanged; nothing leaves the machine.
 */
describeEachDialect('oEmbed discovery by a consumer library (@extractus/oembed-extractor)', (context) => {
  let t: TestApp;
  let slug = '';
  const fetched: string[] = [];
  const local: Fetcher = (href) => {
    const url = new URL(href);
    fetched.push(url.href);
    assert.equal(url.origin, BASE, `the consumer asked another host: ${url.href}`);
    return fetch(`${t.baseUrl}${url.pathname}${url.search}`);
  };

  before(async () => {
    t = await startTestApp(context.store());
    await addCatalogEntry(context.store(), {
      isbn13: ISBN,
      isbn10: '0141439513',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      coverUrl: `https://covers.example/${ISBN}.jpg`,
    });
    const created = await t.get(`/isbn/${ISBN}`);
    slug = (created.headers.get('location') ?? '').replace('/book/', '');
    assert.ok(slug);
  });
  after(() => t.close());

  it("discovers and reads a book link's card from the page's <link>", async () => {
    fetched.length = 0;
    const card = await extract(`${BASE}/b/${slug}`, { maxwidth: 320 }, local);
    assert.equal(card.method, 'auto-discovery');
    assert.deepEqual(
      fetched.map((href) => new URL(href).pathname),
      [`/b/${slug}`, '/oembed'],
      'the page first, then the endpoint its <link> names',
    );
    const endpoint = new URL(fetched[1] ?? '');
    assert.equal(endpoint.searchParams.get('url'), `${BASE}/book/${slug}`);
    assert.equal(endpoint.searchParams.get('format'), 'json');
    assert.equal(card.type, 'rich');
    assert.equal(card.version, '1.0');
    assert.equal(card.title, 'Pride and Prejudice');
    assert.equal(card.author_name, 'Jane Austen');
    assert.equal(card.provider_name, 'Booklink');
    assert.equal(card.width, 320);
    assert.equal(card.thumbnail_url, `https://covers.example/${ISBN}.jpg`);
    assert.match(String(card.html), new RegExp(`^<iframe src="${BASE}/embed/${slug}" width="320" `));
  });
});
