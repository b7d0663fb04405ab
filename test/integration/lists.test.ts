import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { parseIsbn } from '../../src/domain/isbn.js';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { bookRecord } from '../support/factories.js';

/** A checksum-valid ISBN-13 for a small number. */
function isbnFor(n: number): string {
  const body = `978${String(n).padStart(9, '0')}`;
  const sum = [...body].reduce((acc, digit, i) => acc + Number(digit) * (i % 2 === 0 ? 1 : 3), 0);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

async function makeBook(t: TestApp, n: number, title: string): Promise<{ id: number; slug: string }> {
  const isbn = parseIsbn(isbnFor(n));
  if (!isbn) throw new Error('bad isbn');
  const book = await t.services.creator.createFromRecord(
    bookRecord({ isbn13: isbn.isbn13, isbn10: isbn.isbn10, title, authors: ['Test Author'] }),
  );
  return { id: book.id, slug: book.slug };
}

function call(
  t: TestApp,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return fetch(`${t.baseUrl}${path}`, {
    method,
    redirect: 'manual',
    headers: {
      'user-agent': HUMAN_UA,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describeEachDialect('lists without accounts', (context) => {
  let t: TestApp;
  let first: { id: number; slug: string };
  let second: { id: number; slug: string };
  before(async () => {
    t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '100000' });
    first = await makeBook(t, 101, 'The First Book');
    second = await makeBook(t, 102, 'A Second Book');
  });
  after(() => t.close());

  it('creates a list with a first book and shows the edit token once, stored only as a hash', async () => {
    const response = await call(t, 'POST', '/api/v1/lists', { name: 'Summer reading', book_id: first.id });
    assert.equal(response.status, 201);
    const body = await response.json();
    assert.match(body.edit_token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(body.url, `http://booklink.test/list/${body.id}-summer-reading`);
    assert.deepEqual(
      body.books.map((book: { slug: string }) => book.slug),
      [first.slug],
    );
    const row = await context
      .store()
      .db.selectFrom('lists')
      .selectAll()
      .where('public_id', '=', body.id)
      .executeTakeFirstOrThrow();
    assert.notEqual(row.edit_token_hash, body.edit_token);
    assert.match(row.edit_token_hash ?? '', /^[0-9a-f]{64}$/);
    const again = await (await call(t, 'GET', `/api/v1/lists/${body.id}`)).json();
    assert.equal(again.edit_token, undefined);
  });

  it('edits with the token, refuses a wrong token with 403 and changes nothing', async () => {
    const created = await (await call(t, 'POST', '/api/v1/lists', { name: 'Mine' })).json();
    const token = { 'x-edit-token': created.edit_token };
    const wrong = { 'x-edit-token': 'not-the-token' };
    assert.equal(
      (await call(t, 'POST', `/api/v1/lists/${created.id}/books`, { book_id: first.id }, token)).status,
      201,
    );
    const refusals = [
      await call(t, 'PATCH', `/api/v1/lists/${created.id}`, { name: 'Hijacked' }, wrong),
      await call(t, 'POST', `/api/v1/lists/${created.id}/books`, { book_id: second.id }, wrong),
      await call(t, 'DELETE', `/api/v1/lists/${created.id}/books/${first.id}`, undefined, wrong),
      await call(t, 'PATCH', `/api/v1/lists/${created.id}`, { name: 'No token' }),
    ];
    for (const response of refusals) {
      assert.equal(response.status, 403);
      assert.equal(typeof (await response.json()).detail, 'string');
    }
    const after = await (await call(t, 'GET', `/api/v1/lists/${created.id}`)).json();
    assert.equal(after.name, 'Mine');
    assert.deepEqual(
      after.books.map((book: { id: number }) => book.id),
      [first.id],
    );

    const patched = await call(
      t,
      'PATCH',
      `/api/v1/lists/${created.id}`,
      { name: 'Renamed', description: 'Why' },
      token,
    );
    assert.equal(patched.status, 200);
    assert.equal((await patched.json()).description, 'Why');
    await call(t, 'POST', `/api/v1/lists/${created.id}/books`, { book_id: second.id }, token);
    assert.equal(
      (await call(t, 'DELETE', `/api/v1/lists/${created.id}/books/${first.id}`, undefined, token)).status,
      204,
    );
    const final = await (await call(t, 'GET', `/api/v1/lists/${created.id}`)).json();
    assert.deepEqual(
      final.books.map((book: { id: number }) => book.id),
      [second.id],
    );
    assert.equal((await call(t, 'GET', '/api/v1/lists/999999')).status, 404);
  });

  it('finds my lists by token and says which hold a book', async () => {
    const a = await (await call(t, 'POST', '/api/v1/lists', { name: 'A', book_id: second.id })).json();
    const b = await (await call(t, 'POST', '/api/v1/lists', { name: null })).json();
    const response = await call(t, 'POST', '/api/v1/lists/mine', {
      edit_tokens: [a.edit_token, b.edit_token, 'unknown-token'],
      book_id: second.id,
    });
    assert.equal(response.status, 200);
    const { lists } = await response.json();
    const byId = new Map(lists.map((list: { id: number }) => [list.id, list]));
    assert.equal(lists.length, 2);
    assert.deepEqual(byId.get(a.id), {
      id: a.id,
      name: 'A',
      url: `http://booklink.test/list/${a.id}-a`,
      book_count: 1,
      contains_book: true,
    });
    assert.equal((byId.get(b.id) as { contains_book: boolean }).contains_book, false);
  });

  it('renders the public list page with covers, order and book links, at its readable address', async () => {
    const created = await (
      await call(t, 'POST', '/api/v1/lists', { name: 'Best <of> 2025', book_id: first.id })
    ).json();
    await call(
      t,
      'POST',
      `/api/v1/lists/${created.id}/books`,
      { book_id: second.id },
      { 'x-edit-token': created.edit_token },
    );
    const short = await t.get(`/list/${created.id}`);
    assert.equal(short.status, 301);
    assert.equal(short.headers.get('location'), `/list/${created.id}-best-of-2025`);
    const page = await (await t.get(`/list/${created.id}-best-of-2025`)).text();
    assert.match(page, /<h1>Best &lt;of&gt; 2025<\/h1>/);
    const first_ = page.indexOf(`href="/book/${first.slug}"`);
    const second_ = page.indexOf(`href="/book/${second.slug}"`);
    assert.ok(first_ > 0 && second_ > first_, 'books in the order they were added');
    assert.equal((await t.get('/list/424242')).status, 404);
  });

  it('gives a new list a random public id that its page, API and QR code answer to, and not its key', async () => {
    const created = await (
      await call(t, 'POST', '/api/v1/lists', { name: 'Hidden', book_id: first.id })
    ).json();
    assert.equal(typeof created.id, 'string');
    assert.match(created.id, /^[0-9a-z]{12}$/);
    assert.doesNotMatch(created.id, /^\d+$/, 'not a number');
    assert.equal(created.url, `http://booklink.test/list/${created.id}-hidden`);
    const api = await call(t, 'GET', `/api/v1/lists/${created.id}`);
    assert.equal(api.status, 200);
    assert.equal((await api.json()).id, created.id);
    const page = await t.get(`/list/${created.id}-hidden`);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<h1>Hidden<\/h1>/);
    assert.equal((await t.get(`/list/${created.id}/qr.svg`)).status, 200);

    const { id: key } = await context
      .store()
      .db.selectFrom('lists')
      .select('id')
      .where('public_id', '=', created.id)
      .executeTakeFirstOrThrow();
    const token = { 'x-edit-token': created.edit_token };
    for (const path of [`/list/${key}`, `/list/${key}-hidden`, `/list/${key}/qr.svg`]) {
      assert.equal((await t.get(path)).status, 404, path);
    }
    assert.equal((await call(t, 'GET', `/api/v1/lists/${key}`)).status, 404);
    assert.equal((await call(t, 'PATCH', `/api/v1/lists/${key}`, { name: 'x' }, token)).status, 404);
    const adding = await call(t, 'POST', `/api/v1/lists/${key}/books`, { book_id: second.id }, token);
    assert.equal(adding.status, 404);
    const mine = await (
      await call(t, 'POST', '/api/v1/lists/mine', { edit_tokens: [created.edit_token] })
    ).json();
    assert.deepEqual(
      mine.lists.map((list: { id: string }) => list.id),
      [created.id],
    );
  });

  it('gives every new list a different public id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const created = await (await call(t, 'POST', '/api/v1/lists', { name: null })).json();
      assert.match(created.id, /^[0-9a-z]{12}$/);
      ids.add(created.id);
    }
    assert.equal(ids.size, 5);
  });

  it('refuses an unknown book with a 422 at body.book_id', async () => {
    const response = await call(t, 'POST', '/api/v1/lists', { name: 'x', book_id: 987654 });
    assert.equal(response.status, 422);
    assert.deepEqual((await response.json()).detail[0].loc, ['body', 'book_id']);
  });
});
