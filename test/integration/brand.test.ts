import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { AdminClient, addUser } from './admin-support.js';

/** A valid 1×1 PNG, written here (no fixture file). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

const BRAND = {
  site_name: 'Chapter & Verse',
  accent_light: '#8a1c1c',
  accent_dark: '#ffb3a1',
  disclosure: 'We may earn a fee when you buy through our links.',
  default_language: 'en',
  default_country: 'gb',
  contact_email: 'books@chapter.example',
};

function logoForm(bytes: Buffer, name: string, type: string): FormData {
  const form = new FormData();
  form.set('logo', new Blob([new Uint8Array(bytes)], { type }), name);
  return form;
}

describeEachDialect("the operator's brand", (context) => {
  let t: TestApp;
  let admin: AdminClient;
  let slug = '';

  before(async () => {
    t = await startTestApp(context.store(), { CONTACT_EMAIL: 'env@booklink.example' });
    await addUser(context.store(), 'admin@example.org', 'admin');
    await addUser(context.store(), 'editor@example.org', 'editor');
    admin = new AdminClient(t);
    await admin.login('admin@example.org');
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      isbn10: '0141439513',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      publishedDate: '2002-12-31',
      format: 'paperback',
    });
    const created = await t.get('/isbn/9780141439518');
    slug = (created.headers.get('location') ?? '').replace('/book/', '');
  });
  after(() => t.close());

  it('shows the defaults before any setting, with CONTACT_EMAIL as the contact', async () => {
    const home = await (await t.get('/')).text();
    assert.match(home, /<title>Booklink: one link for every book<\/title>/);
    assert.match(home, /Some links earn this site a small commission/);
    assert.doesNotMatch(home, /\/brand\/theme-/);
    const spec = (await (await t.get('/openapi.json')).json()) as {
      info: { title: string; contact?: unknown };
    };
    assert.equal(spec.info.title, 'Booklink');
    assert.deepEqual(spec.info.contact, { email: 'env@booklink.example' });
  });

  it('refuses an accent below 4.5:1 on either theme, and stores nothing', async () => {
    await admin.get('/admin/brand');
    const pale = await admin.post('/admin/brand', { ...BRAND, accent_light: '#9fb5ff' });
    assert.equal(pale.status, 422);
    assert.match(pale.body, /#9fb5ff has a contrast of \d\.\d\d:1 on the light theme/);
    const dim = await admin.post('/admin/brand', { ...BRAND, accent_dark: '#2646a6' });
    assert.equal(dim.status, 422);
    assert.match(dim.body, /on the dark theme/);
    const bad = await admin.post('/admin/brand', { ...BRAND, accent_light: 'red', contact_email: 'nope' });
    assert.equal(bad.status, 422);
    assert.match(bad.body, /Use a hex colour/);
    assert.match(bad.body, /Use an email address/);
    assert.match(await (await t.get('/')).text(), /<title>Booklink:/);
  });

  it('is for admins only and needs the CSRF token', async () => {
    const editor = new AdminClient(t);
    await editor.login('editor@example.org');
    assert.equal((await editor.get('/admin/brand')).status, 403);
    assert.equal((await editor.post('/admin/brand', BRAND)).status, 403);
    assert.equal((await admin.post('/admin/brand', BRAND, false)).status, 403);
    assert.equal(
      (await admin.upload('/admin/brand/logo', logoForm(PNG, 'a.png', 'image/png'), false)).status,
      403,
    );
  });

  it('puts the name, accent and disclosure on every page, the embed and the documents', async () => {
    await admin.get('/admin/brand');
    const saved = await admin.post('/admin/brand', BRAND);
    assert.equal(saved.status, 303);
    assert.equal(saved.location, '/admin/brand?notice=saved');

    const home = await (await t.get('/')).text();
    assert.match(home, /<title>Chapter &amp; Verse: one link for every book<\/title>/);
    assert.match(home, /<meta property="og:site_name" content="Chapter &amp; Verse">/);
    assert.match(home, /We may earn a fee when you buy through our links\./);
    const sheet = /<link rel="stylesheet" href="(\/brand\/theme-[^"]+\.css)">/.exec(home)?.[1];
    assert.ok(sheet, 'the accent stylesheet is linked');
    const css = await t.get(sheet);
    assert.equal(css.status, 200);
    assert.match(css.headers.get('cache-control') ?? '', /immutable/);
    const text = await css.text();
    assert.match(text, /--accent: #8a1c1c/);
    assert.match(text, /prefers-color-scheme: dark\) \{ :root \{ --accent: #ffb3a1/);

    const book = await (await t.get(`/book/${slug}`)).text();
    assert.match(book, /<meta property="og:site_name" content="Chapter &amp; Verse">/);
    assert.match(book, /class="brand" href="\/">[\s\S]*Chapter &amp; Verse<\/a>/);

    const embed = (await (await t.get(`/embed/${slug}.json`)).json()) as { site: Record<string, unknown> };
    assert.equal(embed.site.name, 'Chapter & Verse');
    assert.equal(embed.site.disclosure, BRAND.disclosure);
    assert.equal(embed.site.accent_light, '#8a1c1c');
    const frame = await (await t.get(`/embed/${slug}`)).text();
    assert.match(frame, /We may earn a fee[\s\S]*Chapter &amp; Verse<\/a><\/p>/);
    assert.match(frame, /href="\/brand\/theme-/);

    const search = await (await t.get('/search?q=zzzzqqq')).text();
    assert.match(search, /<title>zzzzqqq · Search · Chapter &amp; Verse<\/title>/);
    assert.match(search, /We may earn a fee/);
    const missing = await t.get('/book/no-such-book', { accept: 'text/html' });
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /· Chapter &amp; Verse<\/title>[\s\S]*We may earn a fee/);

    const guide = await (await t.get('/developers.md')).text();
    assert.match(guide, /^# Chapter & Verse for developers/);
    assert.match(guide, /books@chapter\.example/);
    assert.match(await (await t.get('/llms.txt')).text(), /^# Chapter & Verse/);
    const spec = (await (await t.get('/openapi.json')).json()) as {
      info: { title: string; contact?: unknown };
    };
    assert.equal(spec.info.title, 'Chapter & Verse');
    assert.deepEqual(spec.info.contact, { email: 'books@chapter.example' });
    // Swagger UI reads its own copy of the document: the same brand.
    const uiSpec = (await (await t.get('/docs/json')).json()) as { info: { title: string } };
    assert.equal(uiSpec.info.title, 'Chapter & Verse');

    const brand = await t.services.brand.current();
    assert.equal(brand.defaultLanguage, 'en');
    assert.equal(brand.defaultCountry, 'GB');
    const audit = await t.store.db
      .selectFrom('audit_log')
      .select(['action', 'user_email'])
      .where('entity_type', '=', 'brand')
      .execute();
    assert.deepEqual(audit, [{ action: 'brand.update', user_email: 'admin@example.org' }]);
    // A reader nothing else places gets the operator's language and country; one who says gets theirs.
    await admin.get('/admin/brand');
    assert.equal((await admin.post('/admin/brand', { ...BRAND, default_language: 'fr' })).status, 303);
    assert.equal((await t.services.brand.current()).defaultLanguage, 'fr');
    const page = async (headers: Record<string, string>) =>
      (await fetch(`${t.baseUrl}/book/${slug}`, { headers: { 'user-agent': HUMAN_UA, ...headers } })).text();
    const unplaced = await page({});
    assert.match(unplaced, /<html lang="fr">/);
    assert.match(unplaced, /data-country="GB"/);
    assert.match(unplaced, /data-destination="waterstones"/);
    assert.doesNotMatch(unplaced, /data-destination="barnes-noble"/);
    const american = await page({ 'accept-language': 'en-US' });
    assert.match(american, /<html lang="en">/);
    assert.match(american, /data-country="US"/);
    assert.equal((await admin.post('/admin/brand', BRAND)).status, 303);
  });

  it('takes a PNG logo by its bytes, serves it from this origin, and refuses SVG and large files', async () => {
    await admin.get('/admin/brand');
    const svg = await admin.upload('/admin/brand/logo', logoForm(SVG, 'logo.png', 'image/png'));
    assert.equal(svg.status, 422);
    assert.match(svg.body, /Upload a PNG, JPEG or WebP image/);
    const big = Buffer.concat([PNG, Buffer.alloc(210 * 1024)]);
    const large = await admin.upload('/admin/brand/logo', logoForm(big, 'big.png', 'image/png'));
    assert.ok(large.status === 422 || large.status === 413, `a large logo is refused (${large.status})`);

    const uploaded = await admin.upload(
      '/admin/brand/logo',
      logoForm(PNG, 'logo.bin', 'application/octet-stream'),
    );
    assert.equal(uploaded.status, 303);
    const home = await (await t.get('/')).text();
    const src = /<img class="brand__logo" src="(\/brand\/logo-[0-9a-f]+\.png)"/.exec(home)?.[1];
    assert.ok(src, 'the header shows the logo');
    const logo = await t.get(src);
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/png');
    assert.match(logo.headers.get('cache-control') ?? '', /max-age=31536000, immutable/);
    assert.deepEqual(Buffer.from(await logo.arrayBuffer()), PNG);
    const embed = (await (await t.get(`/embed/${slug}.json`)).json()) as { site: { logo_url: string } };
    assert.equal(embed.site.logo_url, `http://booklink.test${src}`);
    assert.equal((await t.get(src.replace('.png', '.jpg'))).status, 404);

    await admin.get('/admin/brand');
    assert.equal((await admin.post('/admin/brand/logo/remove', {})).status, 303);
    assert.doesNotMatch(await (await t.get('/')).text(), /brand__logo/);
    assert.equal((await t.get(src)).status, 404);
  });
});

describe('accent contrast', () => {
  it('is the WCAG ratio', async () => {
    const { contrastRatio, themeContrast } = await import('../../src/domain/brand.js');
    assert.equal(contrastRatio('#000000', '#ffffff').toFixed(1), '21.0');
    assert.equal(contrastRatio('#777777', '#ffffff').toFixed(2), '4.48');
    assert.ok(themeContrast('#2646a6', 'light') >= 4.5);
    assert.ok(themeContrast('#9fb5ff', 'dark') >= 4.5);
  });
});
