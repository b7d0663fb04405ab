import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { OEmbedAnswer } from '../../src/http/presenters/oembed.js';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

type OEmbed = OEmbedAnswer;

const BASE = 'http://booklink.test';
const ISBN = '9780141439518';

const oembedPath = (url: string, extra = '') => `/oembed?url=${encodeURIComponent(url)}&format=json${extra}`;

describeEachDialect(
  'oEmbed: /oembed and the discovery links of book, short-link and list pages',
  (context) => {
    let t: TestApp;
    let slug = '';
    let listUrl = '';
    before(async () => {
      t = await startTestApp(context.store());
      await addCatalogEntry(context.store(), {
        isbn13: ISBN,
        isbn10: '0141439513',
        title: 'Pride & Prejudice "Annotated"',
        authors: ['Jane Austen', 'Pat Rogers'],
        coverUrl: `https://covers.example/${ISBN}.jpg`,
      });
      const created = await t.get(`/isbn/${ISBN}`);
      slug = (created.headers.get('location') ?? '').replace('/book/', '');
      assert.ok(slug);
      const book = await t.services.pages.load(slug);
      assert.ok(book);
      const list = await fetch(`${t.baseUrl}/api/v1/lists`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': HUMAN_UA },
        body: JSON.stringify({ name: 'Summer <reading>', book_id: book.book.id }),
      });
      assert.equal(list.status, 201);
      listUrl = ((await list.json()) as { url: string }).url;
      assert.ok(listUrl.startsWith(`${BASE}/list/`), listUrl);
    });
    after(() => t.close());

    it('answers a book link with a rich card: the /embed/ iframe, title, authors, provider, thumbnail', async () => {
      const response = await t.get(oembedPath(`${BASE}/book/${slug}`));
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.match(response.headers.get('cache-control') ?? '', /^public, max-age=\d+/);
      assert.equal(response.headers.get('access-control-allow-origin'), '*');
      const body = (await response.json()) as OEmbed;
      assert.equal(body.type, 'rich');
      assert.equal(body.version, '1.0');
      assert.equal(body.title, 'Pride & Prejudice "Annotated"');
      assert.equal(body.author_name, 'Jane Austen and Pat Rogers');
      assert.equal(body.provider_name, 'Booklink');
      assert.equal(body.provider_url, `${BASE}/`);
      assert.ok(Number.isInteger(body.cache_age) && body.cache_age > 0);
      assert.equal(body.width, 480);
      assert.equal(body.height, 360);
      assert.equal(body.thumbnail_url, `https://covers.example/${ISBN}.jpg`);
      assert.equal(body.thumbnail_width, 200);
      assert.equal(body.thumbnail_height, 300);
      // The title's quote and ampersand are escaped inside the markup's attribute.
      assert.equal(
        body.html,
        `<iframe src="${BASE}/embed/${slug}" width="480" height="360" title="Where to get Pride &amp; Prejudice &quot;Annotated&quot;" style="border:0;max-width:100%" loading="lazy"></iframe>`,
      );
      // The frame is the embed page, which any site may frame.
      const frame = await t.get(`/embed/${slug}`);
      assert.equal(frame.status, 200);
      assert.match(frame.headers.get('content-security-policy') ?? '', /frame-ancestors \*/);
    });

    it('answers the short link and an https form of our URL with the same book', async () => {
      for (const url of [`${BASE}/b/${slug}`, `https://booklink.test/book/${slug}`]) {
        const response = await t.get(oembedPath(url));
        assert.equal(response.status, 200, url);
        const body = (await response.json()) as OEmbed;
        assert.ok(body.html.includes(`/embed/${slug}"`), url);
      }
      // format is optional: json is the default.
      const bare = await t.get(`/oembed?url=${encodeURIComponent(`${BASE}/b/${slug}`)}`);
      assert.equal(bare.status, 200);
    });

    it('answers a list link with a card linking to the list, its first cover as thumbnail', async () => {
      for (const url of [listUrl, `${BASE}/list/${new URL(listUrl).pathname.split('/')[2]?.split('-')[0]}`]) {
        const response = await t.get(oembedPath(url));
        assert.equal(response.status, 200, url);
        const body = (await response.json()) as OEmbed;
        assert.equal(body.type, 'rich');
        assert.equal(body.title, 'Summer <reading>');
        assert.equal(body.author_name, undefined);
        assert.ok(body.html.includes(`href="${listUrl}"`), body.html);
        assert.ok(body.html.includes('Summer &lt;reading&gt;'), body.html);
        assert.ok(body.html.includes('1 book: Pride &amp; Prejudice &quot;Annotated&quot;'), body.html);
        assert.equal(body.thumbnail_url, `https://covers.example/${ISBN}.jpg`);
      }
    });

    it('honours maxwidth and maxheight, for the frame and the thumbnail, keeping proportions', async () => {
      const narrow = (await (
        await t.get(oembedPath(`${BASE}/book/${slug}`, '&maxwidth=240'))
      ).json()) as OEmbed;
      assert.deepEqual([narrow.width, narrow.height], [240, 180]);
      assert.deepEqual([narrow.thumbnail_width, narrow.thumbnail_height], [200, 300]);
      assert.ok(narrow.html.includes('width="240" height="180"'), narrow.html);
      const low = (await (
        await t.get(oembedPath(`${BASE}/book/${slug}`, '&maxheight=150'))
      ).json()) as OEmbed;
      assert.deepEqual([low.width, low.height], [200, 150]);
      assert.deepEqual([low.thumbnail_width, low.thumbnail_height], [100, 150]);
      const roomy = (await (
        await t.get(oembedPath(`${BASE}/book/${slug}`, '&maxwidth=2000&maxheight=2000'))
      ).json()) as OEmbed;
      assert.deepEqual([roomy.width, roomy.height], [480, 360]);
    });

    it('answers 404 for links that are not ours: another host, an unknown path, slug or list', async () => {
      const unknownList = `${BASE}/list/${'z'.repeat(12)}`;
      for (const url of [
        `https://elsewhere.example/book/${slug}`,
        `http://booklink.test:8080/book/${slug}`,
        `${BASE}/search?q=austen`,
        `${BASE}/book/${slug}/extra`,
        `${BASE}/book/no-such-book`,
        `${BASE}/list/999999`,
        unknownList,
        `ftp://booklink.test/book/${slug}`,
      ]) {
        const response = await t.get(oembedPath(url));
        assert.equal(response.status, 404, url);
        assert.match(response.headers.get('content-type') ?? '', /^application\/json/, url);
        assert.equal(typeof ((await response.json()) as { detail: unknown }).detail, 'string', url);
      }
    });

    it('answers 422 with the validation body for a missing or malformed url or a bad maxwidth', async () => {
      const cases: Array<[string, Array<string | number>]> = [
        ['/oembed?format=json', ['query', 'url']],
        ['/oembed?url=&format=json', ['query', 'url']],
        [`/oembed?url=${encodeURIComponent('not a url')}`, ['query', 'url']],
        [`${oembedPath(`${BASE}/book/${slug}`)}&maxwidth=wide`, ['query', 'maxwidth']],
        [`${oembedPath(`${BASE}/book/${slug}`)}&maxwidth=0`, ['query', 'maxwidth']],
        [`${oembedPath(`${BASE}/book/${slug}`)}&maxheight=-5`, ['query', 'maxheight']],
        [`/oembed?url=${encodeURIComponent(`${BASE}/book/${slug}`)}&format=yaml`, ['query', 'format']],
      ];
      for (const [path, loc] of cases) {
        const response = await t.get(path, { accept: 'application/json' });
        assert.equal(response.status, 422, path);
        const body = (await response.json()) as {
          detail: Array<{ loc: Array<string | number>; msg: string }>;
        };
        assert.ok(Array.isArray(body.detail), path);
        assert.ok(
          body.detail.some((issue) => JSON.stringify(issue.loc) === JSON.stringify(loc)),
          `${path}: ${JSON.stringify(body.detail)}`,
        );
      }
    });

    it('answers format=xml with 501 Not Implemented', async () => {
      const response = await t.get(`/oembed?url=${encodeURIComponent(`${BASE}/book/${slug}`)}&format=xml`);
      assert.equal(response.status, 501);
    });

    it('puts the discovery link in the head of the book page, the short link and the list page', async () => {
      const expected = (url: string) =>
        `href="${BASE}/oembed?url=${encodeURIComponent(url)}&amp;format=json"`;
      const pages: Array<[string, string]> = [
        [`/book/${slug}`, `${BASE}/book/${slug}`],
        // Twice: the second visit is the page replay's copy of the first.
        [`/book/${slug}`, `${BASE}/book/${slug}`],
        [`/b/${slug}`, `${BASE}/book/${slug}`],
        [new URL(listUrl).pathname, listUrl],
      ];
      for (const [path, url] of pages) {
        const response = await t.get(path);
        assert.equal(response.status, 200, path);
        const page = await response.text();
        const head = page.slice(0, page.indexOf('</head>'));
        const link = /<link rel="alternate" type="application\/json\+oembed"[^>]*>/.exec(head)?.[0];
        assert.ok(link, `${path} has no oEmbed link`);
        assert.ok(link.includes(expected(url)), `${path}: ${link}`);
        assert.match(link, / title="[^"]+"/);
      }
    });
  },
);
