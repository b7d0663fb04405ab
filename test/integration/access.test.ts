import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ACCESS_COOKIE } from '../../src/services/access-codes.js';
import { insertAccessCode, linkDestination } from '../../src/store/access-codes.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry, addPrivateLibrary } from '../support/factories.js';

function cookieOf(response: Response): string {
  const header = response.headers.get('set-cookie') ?? '';
  return header.split(';')[0] ?? '';
}

describeEachDialect('access codes', (context) => {
  let t: TestApp;
  let slug = '';
  before(async () => {
    t = await startTestApp(context.store());
    const destinationId = await addPrivateLibrary(t.store, t.services.events);
    const code = await insertAccessCode(t.store.db, {
      displayName: 'Springfield patrons',
      slug: 'springfield',
      description: 'For card holders of the Springfield Public Library.',
      cookieTtlHours: 24,
      isActive: true,
    });
    await linkDestination(t.store.db, code.id, destinationId);
    await insertAccessCode(t.store.db, {
      displayName: 'Old code',
      slug: 'retired',
      description: '',
      cookieTtlHours: 24,
      isActive: false,
    });
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
    });
    slug = ((await t.get('/isbn/9780141439518')).headers.get('location') ?? '').replace('/book/', '');
  });
  after(() => t.close());

  it('hides the private destination without a code, and /go/ refuses it', async () => {
    const page = await (await t.get(`/book/${slug}`)).text();
    assert.doesNotMatch(page, /Springfield Library/);
    assert.equal((await t.get(`/go/${slug}/springfield-library`)).status, 404);
  });

  it('opens a code: a signed cookie for cookie_ttl_hours, a page naming what it unlocked', async () => {
    const response = await t.get('/access/springfield');
    assert.equal(response.status, 200);
    const setCookie = response.headers.get('set-cookie') ?? '';
    assert.match(
      setCookie,
      new RegExp(`^${ACCESS_COOKIE}=[^;]+; Path=/; Max-Age=86400; HttpOnly; SameSite=Lax`),
    );
    const page = await response.text();
    assert.match(page, /Springfield patrons/);
    assert.match(page, /Borrow from Springfield Library/);

    const cookie = cookieOf(response);
    const book = await t.get(`/book/${slug}`, { cookie });
    assert.match(await book.text(), /Borrow from Springfield Library/);
    assert.match(book.headers.get('cache-control') ?? '', /private/);
    const go = await t.get(`/go/${slug}/springfield-library`, { cookie });
    assert.equal(go.status, 302);
    assert.equal(go.headers.get('location'), 'https://catalog.springfield.example/search?isbn=9780141439518');
    // The cached public page is not what a patron sees, nor the other way round.
    assert.doesNotMatch(await (await t.get(`/book/${slug}`)).text(), /Springfield Library/);
  });

  it('an expired, forged or absent cookie hides the destination again', async () => {
    const expired = t.services.access.sign(new Map([[1, Math.floor(Date.now() / 1000) - 60]]));
    const valid = cookieOf(await t.get('/access/springfield')).split('=')[1] ?? '';
    const [payload] = valid.split('.');
    const forged = `${payload}.${'A'.repeat(43)}`;
    for (const value of [expired, forged, 'garbage']) {
      const page = await (await t.get(`/book/${slug}`, { cookie: `${ACCESS_COOKIE}=${value}` })).text();
      assert.doesNotMatch(page, /Springfield Library/, value);
      assert.equal(
        (await t.get(`/go/${slug}/springfield-library`, { cookie: `${ACCESS_COOKIE}=${value}` })).status,
        404,
      );
    }
  });

  it('an unknown or inactive code says so and sets nothing', async () => {
    const unknown = await t.get('/access/no-such-code');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('set-cookie'), null);
    assert.match(await unknown.text(), /not valid/);
    const inactive = await t.get('/access/retired');
    assert.equal(inactive.status, 410);
    assert.equal(inactive.headers.get('set-cookie'), null);
    assert.match(await inactive.text(), /no longer active/);
  });
});
