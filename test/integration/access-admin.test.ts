import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { AdminClient, addUser, startAdminApp } from './admin-support.js';

describeEachDialect('admin: access codes', (context) => {
  let t: TestApp;
  let admin: AdminClient;
  before(async () => {
    t = await startAdminApp(context.store());
    await addUser(context.store(), 'editor@example.org', 'editor');
    admin = new AdminClient(t);
    await admin.login('editor@example.org');
  });
  after(() => t.close());

  it('creates a code, links a destination, and a reader opening it is granted that destination', async () => {
    await admin.get('/admin/access-codes');
    const created = await admin.post('/admin/access-codes', {
      display_name: 'Springfield patrons',
      slug: 'springfield',
      description: 'Card holders',
      cookie_ttl_hours: '12',
      is_active: 'true',
    });
    assert.equal(created.status, 303);
    const code = await context
      .store()
      .db.selectFrom('access_codes')
      .selectAll()
      .where('slug', '=', 'springfield')
      .executeTakeFirstOrThrow();
    assert.equal(Number(code.cookie_ttl_hours), 12);
    const destination = await context
      .store()
      .db.selectFrom('destinations')
      .select(['id', 'display_name'])
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await admin.get('/admin/access-codes');
    assert.equal(
      (
        await admin.post(`/admin/access-codes/${code.id}/destinations`, {
          destination_id: String(destination.id),
        })
      ).status,
      303,
    );
    const page = await admin.get('/admin/access-codes');
    assert.match(page.body, /Springfield patrons/);

    const opened = await t.get('/access/springfield');
    assert.equal(opened.status, 200);
    assert.match(opened.headers.get('set-cookie') ?? '', /Max-Age=43200/);
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    assert.ok((await t.services.access.accessFor(cookie)).has(Number(destination.id)));

    // Deactivating the code takes effect at once, for cookies already handed out too.
    await admin.post(`/admin/access-codes/${code.id}`, {
      display_name: 'Springfield patrons',
      is_active: 'false',
    });
    assert.equal((await t.get('/access/springfield')).status, 410);
    assert.equal((await t.services.access.accessFor(cookie)).size, 0);
  });

  it('refuses a duplicate slug and a form without its CSRF token', async () => {
    await admin.get('/admin/access-codes');
    const duplicate = await admin.post('/admin/access-codes', { display_name: 'Again', slug: 'springfield' });
    assert.equal(duplicate.status, 422);
    assert.match(duplicate.body, /Another access code has this slug/);
    assert.equal(
      (await admin.post('/admin/access-codes', { display_name: 'x', slug: 'x' }, false)).status,
      403,
    );
  });
});
