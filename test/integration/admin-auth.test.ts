import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { AdminClient, addBook, addUser, PASSWORD, startAdminApp } from './admin-support.js';

const GET_ROUTES = [
  '/admin',
  '/admin/books',
  '/admin/books/1',
  '/admin/destinations',
  '/admin/destinations/new',
  '/admin/destinations/1',
  '/admin/pins',
  '/admin/keys',
  '/admin/users',
  '/admin/audit',
  '/admin/analytics.csv',
];
const POST_ROUTES = [
  '/admin/logout',
  '/admin/books/1/edit',
  '/admin/books/1/links',
  '/admin/destinations',
  '/admin/destinations/1',
  '/admin/pins',
  '/admin/keys',
  '/admin/users',
  '/admin/users/1',
];

describeEachDialect('admin accounts and security', (context) => {
  let t: TestApp;
  before(async () => {
    t = await startAdminApp(context.store());
    await addUser(context.store(), 'admin@example.test', 'admin');
    await addUser(context.store(), 'editor@example.test', 'editor');
    await addUser(context.store(), 'victim@example.test', 'editor');
    await addBook(context.store(), { slug: 'some-book', title: 'Some Book' });
  });
  after(() => t.close());

  it('redirects every admin route to the login form without a session', async () => {
    const client = new AdminClient(t);
    for (const path of GET_ROUTES) {
      const response = await client.get(path);
      assert.equal(response.status, 303, path);
      assert.equal(response.location, '/admin/login', path);
    }
    for (const path of POST_ROUTES) {
      const response = await client.post(path, { title: 'x' }, false);
      assert.equal(response.status, 303, path);
      assert.equal(response.location, '/admin/login', path);
    }
  });

  it('signs in, sets a hardened cookie, and signs out', async () => {
    const client = new AdminClient(t);
    await client.get('/admin/login');
    const response = await fetch(`${t.baseUrl}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `bl_login=${client.csrf}` },
      body: new URLSearchParams({
        _csrf: client.csrf,
        email: 'ADMIN@example.test',
        password: PASSWORD,
      }).toString(),
    });
    assert.equal(response.status, 303);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('bl_admin=')) ?? '';
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Lax/);
    assert.match(cookie, /Path=\/admin/);
    const token = /bl_admin=([^;]+)/.exec(cookie)?.[1] ?? '';
    const rows = await context
      .store()
      .db.selectFrom('admin_sessions' as never)
      .selectAll()
      .execute();
    assert.ok(rows.length > 0);
    assert.ok(!JSON.stringify(rows).includes(token), 'the clear token is never stored');

    const signedIn = new AdminClient(t);
    await signedIn.login('admin@example.test');
    assert.equal((await signedIn.get('/admin')).status, 200);
    const out = await signedIn.post('/admin/logout', {});
    assert.equal(out.location, '/admin/login');
    assert.equal((await signedIn.get('/admin')).status, 303);
  });

  it('refuses a form post without the CSRF token, or with a wrong one', async () => {
    const client = new AdminClient(t);
    await client.login('admin@example.test');
    const missing = await client.post('/admin/books/1/edit', { title: 'Hijacked' }, false);
    assert.equal(missing.status, 403);
    const wrong = await client.post('/admin/books/1/edit', { title: 'Hijacked', _csrf: 'nope' }, false);
    assert.equal(wrong.status, 403);
    const loginWithout = await new AdminClient(t).post(
      '/admin/login',
      { email: 'admin@example.test', password: PASSWORD },
      false,
    );
    assert.equal(loginWithout.status, 403);
    const book = await context
      .store()
      .db.selectFrom('books')
      .select('title')
      .where('slug', '=', 'some-book')
      .executeTakeFirstOrThrow();
    assert.equal(book.title, 'Some Book');
  });

  it('locks an account after ten wrong passwords, even for the right one', async () => {
    const client = new AdminClient(t);
    for (let i = 0; i < 10; i++) {
      const wrong = await client.login('victim@example.test', 'wrong password!');
      assert.equal(wrong.status, 401, `attempt ${i + 1}`);
    }
    const locked = await client.login('victim@example.test');
    assert.equal(locked.status, 429);
    assert.match(locked.body, /locked for 15 minutes/);
    assert.equal(client.hasSession(), false);
  });

  it('keeps editors out of users and API keys', async () => {
    const client = new AdminClient(t);
    await client.login('editor@example.test');
    assert.equal((await client.get('/admin/books')).status, 200);
    assert.equal((await client.get('/admin/users')).status, 403);
    assert.equal((await client.get('/admin/keys')).status, 403);
    await client.get('/admin/books');
    const create = await client.post('/admin/users', {
      email: 'sneaky@example.test',
      password: 'long enough pw',
      role: 'admin',
    });
    assert.equal(create.status, 403);
    const keys = await client.post('/admin/keys', { name: 'sneaky' });
    assert.equal(keys.status, 403);
    const nav = (await client.get('/admin/books')).body;
    assert.doesNotMatch(nav, /href="\/admin\/users"/);
  });
});
