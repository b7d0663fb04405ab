import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { listKey } from '../../src/services/admin/list-fields.js';
import { insertList } from '../../src/store/lists.js';
import type { TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { AdminClient, addBook, addUser, startAdminApp } from './admin-support.js';

const XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>';

describeEachDialect('admin lists', (context) => {
  let t: TestApp;
  let client: AdminClient;
  let bookId = 0;
  let otherId = 0;
  before(async () => {
    t = await startAdminApp(context.store());
    await addUser(context.store(), 'editor@example.test', 'editor');
    bookId = await addBook(context.store(), {
      slug: 'the-test-book',
      title: 'The Test Book',
      isbn13: '9780141439518',
    });
    otherId = await addBook(context.store(), { slug: 'another-book', title: 'Another Book' });
    await addCatalogEntry(context.store(), {
      isbn13: '9780451524935',
      title: 'Nineteen Eighty-Four',
      authors: ['George Orwell'],
    });
    client = new AdminClient(t);
    await client.login('editor@example.test');
  });
  after(() => t.close());

  /** "book add list" from the book's page; answers the list id. */
  async function addToList(fields: Record<string, string>, book = bookId): Promise<number> {
    await client.get(`/admin/books/${book}`);
    const response = await client.post(`/admin/books/${book}/lists`, fields);
    assert.equal(response.status, 303, response.body);
    const page = await client.get(`/admin/books/${book}`);
    const names = [...page.body.matchAll(/href="\/admin\/lists\/(\d+)"/g)].map((m) => Number(m[1]));
    return Math.max(...names);
  }

  /** The list's public address, as its admin page links to it (the public id, never the admin's key). */
  async function publicPath(listId: number): Promise<string> {
    const page = await client.get(`/admin/lists/${listId}`);
    const path = /href="(\/list\/[^"]+)"[^>]*>Public page/.exec(page.body)?.[1];
    assert.ok(path, 'the admin page links to the public page');
    assert.doesNotMatch(path, new RegExp(`^/list/${listId}(-|$)`), 'a new list is not at its key');
    return path;
  }

  it('requires a session on every list route', async () => {
    const anonymous = new AdminClient(t);
    for (const path of ['/admin/lists', '/admin/lists/1', '/admin/lists/1/delete']) {
      const response = await anonymous.get(path);
      assert.equal(response.status, 303, path);
      assert.equal(response.location, '/admin/login', path);
    }
    for (const path of [
      '/admin/lists/1/edit',
      '/admin/lists/1/feature',
      '/admin/lists/1/delete',
      '/admin/lists/1/books',
      '/admin/lists/1/books/remove',
      '/admin/lists/1/order',
      `/admin/books/${bookId}/lists`,
      `/admin/books/${bookId}/lists/remove`,
    ]) {
      const response = await anonymous.post(path, { list_name: 'x', confirm: 'yes' }, false);
      assert.equal(response.status, 303, path);
      assert.equal(response.location, '/admin/login', path);
    }
  });

  it('refuses forms without the CSRF token and changes nothing', async () => {
    const listId = await addToList({ list_name: 'Guarded' });
    for (const [path, fields] of [
      [`/admin/books/${otherId}/lists`, { list_name: 'Sneaky' }],
      [`/admin/lists/${listId}/delete`, { confirm: 'yes' }],
      [`/admin/lists/${listId}/feature`, { featured: 'true' }],
      [`/admin/lists/${listId}/edit`, { name: 'Renamed' }],
    ] as const) {
      const response = await client.post(path, fields, false);
      assert.equal(response.status, 403, path);
    }
    const page = await client.get(`/admin/lists/${listId}`);
    assert.match(page.body, /<h1>Guarded<\/h1>/);
    assert.doesNotMatch((await client.get('/admin/lists')).body, /Sneaky/);
  });

  it('adds a book to a new list, then to the same list by source, name and date, and removes it', async () => {
    const first = await addToList({ list_name: 'Summer Reading', list_date: '2025-06-01', rank: '2' });
    const second = await addToList(
      { list_name: 'Summer Reading', list_date: '2025-06-01', list_source: 'admin' },
      otherId,
    );
    assert.equal(first, second);
    const other = await addToList({ list_name: 'Summer Reading', list_date: '2025-07-01' });
    assert.notEqual(other, first);
    const index = await client.get('/admin/lists');
    assert.match(
      index.body,
      new RegExp(`href="/admin/lists/${first}">Summer Reading</a>[\\s\\S]*?<td class="num">2</td>`),
    );
    assert.match((await client.get('/admin/lists?q=summer&kind=admin')).body, /Summer Reading/);
    assert.doesNotMatch((await client.get('/admin/lists?q=summer&kind=reader')).body, /Summer Reading/);
    const removed = await client.post(`/admin/books/${bookId}/lists/remove`, { list_id: String(other) });
    assert.equal(removed.status, 303);
    assert.doesNotMatch(
      (await client.get(`/admin/books/${bookId}`)).body,
      new RegExp(`/admin/lists/${other}"`),
    );
    const audit = await client.get('/admin/audit');
    assert.match(audit.body, /list\.book\.add/);
    assert.match(audit.body, /list\.book\.remove/);
  });

  it('adds to an ingested list when source, name and date match it', async () => {
    const ingested = await insertList(context.store().db, {
      kind: 'ingest',
      name: 'Fiction',
      source: 'nyt',
      listDate: '2025-01-05',
      ingestKey: listKey('nyt', 'Fiction', '2025-01-05'),
    });
    const id = await addToList({
      list_name: 'Fiction',
      list_source: 'nyt',
      list_date: '2025-01-05',
      rank: '3',
    });
    assert.equal(id, ingested.id);
  });

  it('adds books by slug, ISBN, /book/ URL and retailer URL, reorders by rank, and removes one', async () => {
    const listId = await addToList({ list_name: 'Ways In' }, otherId);
    const add = (book_ref: string, rank = '') =>
      client.post(`/admin/lists/${listId}/books`, { book_ref, rank });
    assert.equal((await add('https://www.amazon.com/dp/0141439513', '1')).status, 303);
    assert.equal((await add('978-0-451-52493-5', '5')).status, 303);
    const page = await client.get(`/admin/lists/${listId}`);
    assert.match(page.body, /The Test Book[\s\S]*Nineteen Eighty-Four[\s\S]*Another Book/);
    const duplicate = await add('the-test-book');
    assert.equal(duplicate.status, 422);
    assert.match(duplicate.body, /already on the list/);
    assert.equal(
      (await client.post(`/admin/lists/${listId}/books/remove`, { book_id: String(bookId) })).status,
      303,
    );
    assert.equal((await add(`${t.baseUrl}/book/the-test-book`, '9')).status, 303);
    const listPage = (await client.get(`/admin/lists/${listId}`)).body;
    const orwell = Number(/\/admin\/books\/(\d+)">Nineteen/.exec(listPage)?.[1]);
    assert.ok(orwell > 0);
    const order = await client.post(`/admin/lists/${listId}/order`, {
      books: [bookId, otherId, orwell].join(','),
      [`rank_${bookId}`]: '1',
      [`rank_${otherId}`]: '2',
      [`rank_${orwell}`]: '',
    });
    assert.equal(order.status, 303);
    const path = await publicPath(listId);
    assert.match(path, /^\/list\/[0-9a-z]{12}-ways-in$/);
    const publicPage = await (await t.get(path)).text();
    assert.match(publicPage, /The Test Book[\s\S]*Another Book[\s\S]*Nineteen Eighty-Four/);
    assert.match((await client.get('/admin/audit')).body, /list\.reorder/);
  });

  it('makes a new list with its books from the Lists page, in the order typed', async () => {
    const index = await client.get('/admin/lists');
    assert.match(index.body, /<summary class="button">New list<\/summary>/);
    const missing = await client.post('/admin/lists', {
      name: 'Staff picks',
      books: 'the-test-book\nno-such-book-here',
    });
    assert.equal(missing.status, 422);
    assert.match(missing.body, /No book found for: no-such-book-here/);
    assert.match(missing.body, /value="Staff picks"/, 'the form is refilled');
    assert.equal((await client.post('/admin/lists', { name: '', books: '' })).status, 422);

    const created = await client.post('/admin/lists', {
      name: 'Staff picks',
      description: 'What we read this winter',
      books: 'another-book\n978-0-451-52493-5\n\nthe-test-book\n',
      is_featured: 'true',
    });
    assert.equal(created.status, 303, created.body);
    const id = Number(/\/admin\/lists\/(\d+)\?notice=created/.exec(created.location ?? '')?.[1]);
    assert.ok(id > 0);
    const list = await t.services.admin.lists.find(id);
    assert.ok(list);
    assert.equal(list.featured, true);
    const items = await t.services.admin.lists.items(list);
    assert.deepEqual(
      items.map((item) => [item.book.title, item.rank]),
      [
        ['Another Book', 1],
        ['Nineteen Eighty-Four', 2],
        ['The Test Book', 3],
      ],
    );
    const again = await client.post('/admin/lists', { name: 'Staff picks', books: 'another-book' });
    assert.equal(again.status, 422);
    assert.match(again.body, /A list with this name and date exists/);
    await client.post(`/admin/lists/${id}/delete`, { confirm: 'yes' });
  });

  it('edits, features, unfeatures and deletes a list, with the home page following', async () => {
    const listId = await addToList({ list_name: 'Prize Winners' });
    const edited = await client.post(`/admin/lists/${listId}/edit`, {
      name: 'Prize Winners 2025',
      description: 'The shortlist.',
      list_date: '2025-03',
      is_featured: 'true',
    });
    assert.equal(edited.status, 303);
    assert.match(await (await t.get('/')).text(), /Prize Winners 2025/);
    await client.get('/admin/lists');
    assert.equal(
      (await client.post(`/admin/lists/${listId}/feature`, { featured: 'false', back: 'index' })).location,
      '/admin/lists?notice=saved',
    );
    assert.doesNotMatch(await (await t.get('/')).text(), /Prize Winners 2025/);
    const path = await publicPath(listId);
    const confirm = await client.get(`/admin/lists/${listId}/delete`);
    assert.match(confirm.body, /Delete this list\?/);
    const unconfirmed = await client.post(`/admin/lists/${listId}/delete`, {});
    assert.equal(unconfirmed.location, `/admin/lists/${listId}/delete`);
    assert.equal((await client.get(`/admin/lists/${listId}`)).status, 200);
    const deleted = await client.post(`/admin/lists/${listId}/delete`, { confirm: 'yes' });
    assert.equal(deleted.location, '/admin/lists?notice=deleted');
    assert.equal((await client.get(`/admin/lists/${listId}`)).status, 404);
    assert.equal((await t.get(path)).status, 404);
    assert.match((await client.get('/admin/audit')).body, /list\.delete/);
  });

  it('re-renders invalid input with the errors beside the fields', async () => {
    await client.get(`/admin/books/${bookId}`);
    const bad = await client.post(`/admin/books/${bookId}/lists`, {
      list_name: 'X',
      rank: 'abc',
      list_date: 'soon',
    });
    assert.equal(bad.status, 422);
    assert.match(bad.body, /field--invalid[\s\S]*Enter a whole number from 1/);
    const unnamed = await client.post(`/admin/books/${bookId}/lists`, {
      list_date: 'soon',
      is_featured: 'maybe',
    });
    assert.equal(unnamed.status, 422);
    assert.match(unnamed.body, /Use a date like/);
    assert.match(unnamed.body, /Choose yes or no/);
    assert.match((await client.post(`/admin/books/${bookId}/lists`, {})).body, /Name the new list/);
    assert.match((await client.post(`/admin/books/${bookId}/lists/remove`, {})).body, /Choose a list/);
    const listId = await addToList({ list_name: 'Checked' });
    const unknown = await client.post(`/admin/lists/${listId}/books`, { book_ref: 'no-such-book' });
    assert.equal(unknown.status, 422);
    assert.match(unknown.body, /No book found/);
    const order = await client.post(`/admin/lists/${listId}/order`, {
      books: String(bookId),
      [`rank_${bookId}`]: 'x',
    });
    assert.equal(order.status, 422);
    assert.match(order.body, /is-invalid[\s\S]*Enter a whole number from 1/);
    const edit = await client.post(`/admin/lists/${listId}/edit`, {
      name: 'n'.repeat(501),
      list_date: '2025-01-01',
    });
    assert.equal(edit.status, 422);
    assert.match(edit.body, /At most 500 characters/);
    for (const rank of ['abc', '0', '99999999999', '1e3']) {
      const response = await client.post(`/admin/lists/${listId}/books`, { book_ref: 'the-test-book', rank });
      assert.equal(response.status, 422, rank);
      assert.match(response.body, /field--invalid[\s\S]*Enter a whole number from 1/, rank);
    }
    const hugeId = await client.post(`/admin/books/${bookId}/lists/remove`, { list_id: '99999999999' });
    assert.equal(hugeId.status, 303);
    assert.equal((await client.get('/admin/lists/123456789')).status, 404);
    assert.equal((await client.get('/admin/lists/abc')).status, 404);
    assert.equal((await client.get('/admin/lists?kind=nope&page=-1')).status, 200);
  });

  it('shows a hostile list name escaped on admin and public pages', async () => {
    const listId = await addToList({ list_name: XSS, is_featured: 'true' });
    assert.ok(listId > 0);
    const pages = [
      (await client.get('/admin/lists')).body,
      (await client.get(`/admin/lists/${listId}`)).body,
      (await client.get(`/admin/lists/${listId}/delete`)).body,
      (await client.get(`/admin/books/${bookId}`)).body,
      await (await t.get('/')).text(),
    ];
    const publicList = await t.get(await publicPath(listId));
    const location = publicList.headers.get('location');
    pages.push(location ? await (await t.get(location)).text() : await publicList.text());
    for (const page of pages) {
      assert.doesNotMatch(page, /<script>alert/);
      assert.doesNotMatch(page, /<img src=x/);
    }
    assert.match(pages[0] ?? '', /&lt;script&gt;alert/);
    assert.match(pages.at(-1) ?? '', /&lt;script&gt;alert/);
  });
});
