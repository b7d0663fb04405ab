import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { AdminClient, addBook, addUser, startAdminApp } from './admin-support.js';

const XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>';

describeEachDialect('admin forms', (context) => {
  let t: TestApp;
  let client: AdminClient;
  let bookId = 0;
  let otherId = 0;
  before(async () => {
    t = await startAdminApp(context.store());
    await addUser(context.store(), 'admin@example.test', 'admin');
    bookId = await addBook(context.store(), {
      slug: 'the-test-book',
      title: 'The Test Book',
      isbn13: '9780141439518',
    });
    otherId = await addBook(context.store(), { slug: 'the-test-book-audio', title: 'The Test Book (audio)' });
    client = new AdminClient(t);
    await client.login('admin@example.test');
  });
  after(() => t.close());

  it('finds books by title, author, ISBN and slug', async () => {
    for (const q of ['test book', 'test author', '978-0-14-143951-8', 'the-test-book']) {
      const page = await client.get(`/admin/books?q=${encodeURIComponent(q)}`);
      assert.match(page.body, new RegExp(`href="/admin/books/${bookId}"`), q);
    }
  });

  it('edits a book without changing its slug, shows it publicly at once, and audits it', async () => {
    await t.get('/book/the-test-book');
    const saved = await client.post(`/admin/books/${bookId}/edit`, {
      title: 'A New Title',
      authors: 'Ann One\nBob Two',
      isbn_13: '9780141439518',
    });
    assert.equal(saved.status, 303);
    const page = await (await t.get('/book/the-test-book')).text();
    assert.match(page, /A New Title/);
    const audit = await client.get('/admin/audit');
    assert.match(audit.body, /book\.update/);
    assert.match(audit.body, /The Test Book/);
  });

  it('re-renders an invalid edit with the error beside the field', async () => {
    const bad = await client.post(`/admin/books/${bookId}/edit`, { title: '', isbn_13: '9780141439519' });
    assert.equal(bad.status, 422);
    assert.match(bad.body, /class="field field--invalid"/);
    assert.match(bad.body, /A book needs a title/);
    assert.match(bad.body, /Not a valid ISBN/);
    assert.match(bad.body, /<form/);
  });

  it('shows stored HTML escaped on admin and public pages', async () => {
    await client.get(`/admin/books/${bookId}`);
    const saved = await client.post(`/admin/books/${bookId}/edit`, {
      title: XSS,
      authors: XSS,
      description: XSS,
    });
    assert.equal(saved.status, 303);
    for (const page of [
      (await client.get(`/admin/books/${bookId}`)).body,
      (await client.get(`/admin/books?q=script`)).body,
      await (await t.get('/book/the-test-book')).text(),
    ]) {
      assert.doesNotMatch(page, /<script>alert/);
      assert.doesNotMatch(page, /<img src=x/);
      assert.match(page, /&lt;script&gt;alert/);
    }
    await client.post(`/admin/books/${bookId}/edit`, {
      title: 'A New Title',
      authors: 'Ann One',
      isbn_13: '9780141439518',
    });
  });

  it('creates a destination, previews its template, renames it with the old slug redirecting', async () => {
    await client.get('/admin/destinations/new');
    const notNumber = await client.post('/admin/destinations', {
      display_name: 'X',
      display_priority: 'abc',
    });
    assert.equal(notNumber.status, 422);
    assert.match(notNumber.body, /Enter a whole number/);
    const invalid = await client.post('/admin/destinations', {
      display_name: '',
      slug: 'Bad Slug',
      group: 'new',
      url_template: 'http://x/{nope}',
    });
    assert.equal(invalid.status, 422);
    assert.match(invalid.body, /Lower-case letters/);
    assert.match(invalid.body, /unknown placeholder/);
    assert.match(invalid.body, /value="Bad Slug"/);
    const created = await client.post('/admin/destinations', {
      display_name: 'My Library',
      slug: 'my-library',
      group: 'library',
      url_template: 'https://lib.example/search?isbn={isbn13}',
      base_url: 'https://lib.example',
      is_public: 'true',
    });
    assert.equal(created.status, 303);
    const id = Number(/\/admin\/destinations\/(\d+)/.exec(created.location ?? '')?.[1]);
    const page = await client.get(`/admin/destinations/${id}`);
    assert.match(page.body, /https:\/\/lib\.example\/search\?isbn=9780141439518/);
    const preview = await client.get(
      '/admin/destinations/preview?template=https%3A%2F%2Fa.example%2F%7Bisbn10%7D&group=new',
    );
    assert.deepEqual(JSON.parse(preview.body), { url: 'https://a.example/0141439513', problems: [] });

    const renamed = await client.post(`/admin/destinations/${id}`, {
      display_name: 'My Library',
      new_slug: 'our-library',
      group: 'library',
      url_template: 'https://lib.example/search?isbn={isbn13}',
      is_public: 'false',
    });
    assert.equal(renamed.status, 303);
    await client.post(`/admin/destinations/${id}`, {
      display_name: 'My Library',
      new_slug: 'our-library',
      group: 'library',
      url_template: 'https://lib.example/search?isbn={isbn13}',
      is_public: 'true',
    });
    const go = await t.get('/go/the-test-book/my-library');
    assert.equal(go.status, 302);
    assert.equal(go.headers.get('location'), 'https://lib.example/search?isbn=9780141439518');
  });

  it('attaches a destination link with a window, lists it on the destination, and removes it', async () => {
    await client.get(`/admin/books/${bookId}`);
    const bad = await client.post(`/admin/books/${bookId}/links`, {
      destination_id: '1',
      active_from: 'soon',
    });
    assert.equal(bad.status, 422);
    assert.match(bad.body, /Use a date like/);
    const added = await client.post(`/admin/books/${bookId}/links`, {
      destination_id: '1',
      url: 'https://bookshop.org/special',
      label: 'Signed copy',
      tagline: 'Limited',
      active_from: '2000-01-01',
      active_until: '2999-12-31',
      is_featured: 'true',
    });
    assert.equal(added.status, 303);
    const publicPage = await (await t.get('/book/the-test-book')).text();
    assert.match(publicPage, /Signed copy/);
    const destination = await client.get('/admin/destinations/1');
    assert.match(destination.body, /Signed copy/);
    const linkId = /name="link_id" value="(\d+)"/.exec(destination.body)?.[1] ?? '';
    // Another destination's forms cannot reach this link.
    const foreign = await client.post('/admin/destinations/2/links/update', {
      link_id: linkId,
      label: 'Moved',
    });
    assert.equal(foreign.status, 422);
    await client.post('/admin/destinations/2/links/remove', { link_id: linkId });
    assert.match(await (await t.get('/book/the-test-book')).text(), /Signed copy/);
    const updated = await client.post('/admin/destinations/1/links/update', {
      link_id: linkId,
      label: 'Signed!',
      url: 'https://bookshop.org/special',
      is_featured: 'false',
    });
    assert.equal(updated.status, 303);
    assert.match(await (await t.get('/book/the-test-book')).text(), /Signed!/);
    await client.post('/admin/destinations/1/links/remove', { link_id: linkId });
    assert.doesNotMatch(await (await t.get('/book/the-test-book')).text(), /Signed!/);
  });

  it('creates and deletes overrides and pins; links editions and sets the canonical one', async () => {
    await client.get(`/admin/books/${bookId}`);
    assert.equal(
      (
        await client.post(`/admin/books/${bookId}/overrides`, {
          retailer_key: 'amazon',
          override_url: 'javascript:alert(1)',
        })
      ).status,
      422,
    );
    assert.equal(
      (
        await client.post(`/admin/books/${bookId}/overrides`, {
          retailer_key: 'amazon',
          override_url: 'https://www.amazon.com/dp/special',
        })
      ).status,
      303,
    );
    assert.equal(
      (await t.get('/go/the-test-book/amazon')).headers
        .get('location')
        ?.startsWith('https://www.amazon.com/dp/special'),
      true,
    );
    await client.post(`/admin/books/${bookId}/overrides/delete`, { retailer_key: 'amazon' });

    await client.get('/admin/pins');
    assert.equal((await client.post('/admin/pins', { query: 'test', book_ref: 'no-such-book' })).status, 422);
    assert.equal(
      (
        await client.post('/admin/pins', {
          query: 'Tést Book!',
          book_ref: 'http://booklink.test/book/the-test-book',
        })
      ).status,
      303,
    );
    const pins = await client.get('/admin/pins');
    assert.match(pins.body, /test book/);

    assert.equal(
      (await client.post(`/admin/books/${bookId}/editions/link`, { target_book_id: String(otherId) })).status,
      303,
    );
    assert.equal(
      (await client.post(`/admin/books/${bookId}/editions/canonical`, { new_canonical_id: String(otherId) }))
        .status,
      303,
    );
    const admin = await client.get(`/admin/books/${bookId}`);
    assert.match(admin.body, /canonical/);
    assert.match(await (await t.get('/book/the-test-book')).text(), /the-test-book-audio/);
    assert.equal(
      (await client.post(`/admin/books/${bookId}/editions/link`, { target_book_id: '99999' })).status,
      422,
    );
  });

  it('manages users and API keys as an admin', async () => {
    await client.get('/admin/users');
    assert.equal(
      (await client.post('/admin/users', { email: 'not-an-email', password: 'short', role: 'editor' }))
        .status,
      422,
    );
    assert.equal(
      (
        await client.post('/admin/users', {
          email: 'new@example.test',
          password: 'long enough password',
          role: 'editor',
        })
      ).status,
      303,
    );
    await client.get('/admin/keys');
    const created = await client.post('/admin/keys', { name: 'Partner app', ingest: 'true' });
    assert.equal(created.status, 201);
    assert.match(created.body, /bl_[0-9A-Za-z]{32}/);
    assert.doesNotMatch((await client.get('/admin/keys')).body, /bl_[0-9A-Za-z]{32}/);
  });
});
