import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

interface EmbedBody {
  book: { slug: string; title: string; authors: string[]; url: string; cover_url: string | null };
  partner: string | null;
  country: string | null;
  groups: Array<{ group: string; title: string; links: Array<{ destination: string; url: string }> }>;
}

const ISBN = '9780141439518';

describeEachDialect('drop-in embed: /embed.js, /embed/{book}.json, /embed/{book}', (context) => {
  let t: TestApp;
  let slug = '';
  before(async () => {
    // A tiny API limit: the embed must not be charged to it.
    t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '2' });
    await addCatalogEntry(context.store(), {
      isbn13: ISBN,
      isbn10: '0141439513',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      coverUrl: `https://covers.example/${ISBN}.jpg`,
    });
    await addCatalogEntry(context.store(), {
      source: 'gutenberg',
      entryKey: 'gutenberg:1342',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      identifiers: { gutenberg: '1342' },
    });
    const created = await t.get(`/isbn/${ISBN}`);
    slug = (created.headers.get('location') ?? '').replace('/book/', '');
    assert.ok(slug);
  });
  after(() => t.close());

  it('answers a slug with the grouped public links, as absolute /go/ URLs carrying the partner', async () => {
    const response = await t.get(`/embed/${slug}.json?partner=acme-books&country=GB`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('set-cookie'), null);
    const body = (await response.json()) as EmbedBody;
    assert.equal(body.book.title, 'Pride and Prejudice');
    assert.deepEqual(body.book.authors, ['Jane Austen']);
    assert.equal(body.book.url, `http://booklink.test/book/${slug}`);
    assert.equal(body.partner, 'acme-books');
    assert.equal(body.country, 'GB');
    const groups = body.groups.map((group) => group.group);
    assert.ok(groups.includes('new') && groups.includes('free'), `groups: ${groups.join(',')}`);
    for (const group of body.groups) {
      assert.ok(group.links.length > 0, `empty group ${group.group}`);
      for (const link of group.links) {
        const url = new URL(link.url);
        assert.equal(url.origin, 'http://booklink.test');
        assert.equal(url.pathname, `/go/${slug}/${link.destination}`);
        assert.equal(url.searchParams.get('partner'), 'acme-books');
      }
    }
    // Each /go/ URL leads somewhere: the same redirect the book page's buttons use.
    const first = body.groups[0]?.links[0];
    assert.ok(first);
    const go = await t.get(new URL(first.url).pathname + new URL(first.url).search);
    assert.equal(go.status, 302);
  });

  it("writes the snippet on the builder page for site owners; the reader's page only links it", async () => {
    const response = await t.get(`/book/${slug}/embed`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(response.headers.get('set-cookie'), null);
    const page = await response.text();
    assert.match(page, /<meta name="robots" content="noindex">/);
    assert.match(page, /<h1 class="embed-builder__title">Embed this book on your site<\/h1>/);
    // The default snippet is in the markup, to copy by hand without script.
    const snippet = `&lt;script src=&quot;http://booklink.test/embed.js&quot; data-book=&quot;${slug}&quot; async&gt;&lt;/script&gt;`;
    assert.ok(page.includes(snippet), 'the script snippet');
    assert.match(page, new RegExp(`<iframe class="embed-builder__frame" src="/embed/${slug}"`));
    assert.match(page, new RegExp(`<a href="/book/${slug}">Pride and Prejudice</a>`));

    const book = await (await t.get(`/book/${slug}`)).text();
    assert.doesNotMatch(book, /embed-panel|embed-kind|Script \(Shadow DOM\)/);
    assert.match(
      book,
      new RegExp(`<a class="share-more__embed" href="/book/${slug}/embed">Embed this book on your site</a>`),
    );

    const unknown = await t.get('/book/no-such-book/embed');
    assert.equal(unknown.status, 404);
  });

  it('answers an ISBN-10 or ISBN-13 with the same book', async () => {
    for (const isbn of [ISBN, '0141439513', '978-0-14-143951-8']) {
      const response = await t.get(`/embed/${isbn}.json`);
      assert.equal(response.status, 200, isbn);
      assert.equal(((await response.json()) as EmbedBody).book.slug, slug);
    }
  });

  it('ignores a malformed partner id instead of failing', async () => {
    const response = await t.get(`/embed/${slug}.json?partner=${encodeURIComponent('"><x y')}`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as EmbedBody;
    assert.equal(body.partner, null);
    assert.ok(body.groups.every((group) => group.links.every((link) => !link.url.includes('partner='))));
  });

  it('answers an unknown book with a JSON 404', async () => {
    const response = await t.get('/embed/no-such-book.json');
    assert.equal(response.status, 404);
    assert.match(((await response.json()) as { detail: string }).detail, /no book/i);
  });

  it('is not charged to the API rate limit: a page with several embeds keeps working', async () => {
    for (let i = 0; i < 6; i++) {
      const response = await t.get(`/embed/${slug}.json`);
      assert.equal(response.status, 200, `request ${i}`);
    }
    for (let i = 0; i < 4; i++) assert.equal((await t.get(`/embed/${slug}`)).status, 200);
  });

  it('serves the iframe page framable from any origin, without cookies, under the page budget', async () => {
    const response = await t.get(`/embed/${slug}?partner=acme-books&cover=0`);
    assert.equal(response.status, 200);
    const csp = response.headers.get('content-security-policy') ?? '';
    assert.match(csp, /frame-ancestors \*/);
    assert.match(csp, /script-src 'self'/);
    assert.equal(response.headers.get('x-frame-options'), null);
    assert.equal(response.headers.get('set-cookie'), null);
    const page = await response.text();
    assert.match(page, /Pride and Prejudice/);
    assert.doesNotMatch(page, /class="bl-cover"/);
    assert.doesNotMatch(page, /\sstyle=/);
    const hrefs = [...page.matchAll(/href="(http:\/\/booklink\.test\/go\/[^"]+)"/g)].map((m) =>
      (m[1] ?? '').replace(/&amp;/g, '&'),
    );
    assert.ok(hrefs.length > 5);
    assert.ok(hrefs.every((href) => new URL(href).searchParams.get('partner') === 'acme-books'));
    const withCover = await (await t.get(`/embed/${slug}`)).text();
    assert.match(withCover, /class="bl-cover" src="https:\/\/covers\.example\//);
    // Page + its stylesheet + its script, gzipped: the 15 KB budget of the iframe.
    const assets = [...page.matchAll(/(?:href|src)="(\/static\/[^"]+)"/g)].map((m) => m[1] ?? '');
    assert.equal(assets.length, 2);
    let total = gzipSync(page).length;
    for (const asset of assets)
      total += gzipSync(Buffer.from(await (await t.get(asset)).arrayBuffer())).length;
    assert.ok(total < 15 * 1024, `iframe page weighs ${total} bytes gzipped`);
  });

  it('serves /embed.js with its stylesheet inlined, cacheable, under 8 KB gzipped', async () => {
    const response = await t.get('/embed.js', { 'accept-encoding': 'identity' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /javascript/);
    const body = await response.text();
    assert.doesNotMatch(body, /__BOOKLINK_EMBED_CSS__/);
    assert.match(body, /adoptedStyleSheets/);
    assert.match(body, /prefers-color-scheme: dark/);
    const gzipped = gzipSync(body);
    assert.equal(gunzipSync(gzipped).toString(), body);
    assert.ok(gzipped.length < 8 * 1024, `embed.js is ${gzipped.length} bytes gzipped`);
    const etag = response.headers.get('etag') ?? '';
    assert.ok(etag);
    const again = await t.get('/embed.js', { 'if-none-match': etag });
    assert.equal(again.status, 304);
  });
});
