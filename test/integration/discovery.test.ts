import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

describeEachDialect('discovery files', (context) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(context.store(), { CONTACT_EMAIL: 'keys@booklink.test' });
    await addCatalogEntry(context.store(), {
      isbn13: '9780547928227',
      title: 'The Hobbit',
      authors: ['J.R.R. Tolkien'],
    });
    await t.get('/isbn/9780547928227');
  });
  after(() => t.close());

  it('serves robots.txt as SPEC 8 says', async () => {
    const response = await t.get('/robots.txt');
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const lines = (await response.text()).split('\n');
    for (const path of ['/search', '/isbn/', '/resolve', '/go/', '/api/'])
      assert.ok(lines.includes(`Disallow: ${path}`), path);
    for (const path of ['/book/', '/b/']) assert.ok(lines.includes(`Allow: ${path}`), path);
  });

  it('serves the developer guide and llms.txt with this origin and contact filled in', async () => {
    const guide = await t.get('/developers.md');
    assert.match(guide.headers.get('content-type') ?? '', /^text\/markdown/);
    const text = await guide.text();
    assert.match(text, /http:\/\/booklink\.test\/api\/v1\/resolve/);
    assert.match(text, /keys@booklink\.test/);
    assert.doesNotMatch(text, /\{\{/);
    const llms = await t.get('/llms.txt');
    assert.match(llms.headers.get('content-type') ?? '', /^text\/plain/);
    const index = await llms.text();
    assert.match(index, /^# Booklink\n\n> /);
    assert.match(index, /\(http:\/\/booklink\.test\/developers\.md\)/);
  });

  it('lists book pages in sitemap.xml', async () => {
    const response = await t.get('/sitemap.xml');
    assert.match(response.headers.get('content-type') ?? '', /^application\/xml/);
    const xml = await response.text();
    assert.match(
      xml,
      /<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9" xmlns:xhtml="http:\/\/www.w3.org\/1999\/xhtml">/,
    );
    assert.match(xml, /<loc>http:\/\/booklink.test\/book\/the-hobbit-j-r-r-tolkien<\/loc>/);
    // Every reader language as an alternate, and the plain address as x-default (issue 44).
    for (const code of ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'ja'])
      assert.ok(
        xml.includes(
          `<xhtml:link rel="alternate" hreflang="${code}" href="http://booklink.test/book/the-hobbit-j-r-r-tolkien?lang=${code}"/>`,
        ),
        code,
      );
    assert.ok(
      xml.includes(
        '<xhtml:link rel="alternate" hreflang="x-default" href="http://booklink.test/book/the-hobbit-j-r-r-tolkien"/>',
      ),
    );
  });

  it('publishes OpenAPI 3.1.0 version 1.84.0 and renders /docs from its own assets', async () => {
    const response = await t.get('/openapi.json');
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
    const doc = (await response.json()) as {
      openapi: string;
      info: { version: string };
      paths: Record<string, unknown>;
    };
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.84.0');
    for (const path of ['/isbn/{isbn}', '/book/{slug}', '/b/{slug}', '/api/v1/cover-fallback'])
      assert.ok(doc.paths[path], path);
    const docs = await t.get('/docs/');
    const html = await docs.text();
    assert.equal(docs.status, 200);
    assert.match(html, /swagger/i);
    assert.doesNotMatch(html, /https?:\/\/(cdn|unpkg|cdnjs)/);
  });
});
