import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createApiKey } from '../../src/store/api-keys.js';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';

interface Issue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** Every SPEC 2.4 limit of the readers' bodies answers SPEC 7's 422 body with the offending `loc`. */
describeEachDialect('readers bodies: SPEC 7 validation errors', (context) => {
  let t: TestApp;
  let ingestKey = '';
  let listId = 0;
  let token = '';
  before(async () => {
    t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '100000', RATE_LIMIT_KEYED: '100000' });
    ingestKey = (await createApiKey(context.store().db, { name: 'partner', scopes: ['ingest'] })).key;
    const created = await (await post('/api/v1/lists', { name: 'ok' })).json();
    listId = created.id;
    token = created.edit_token;
  });
  after(() => t.close());

  function post(path: string, body: unknown, headers: Record<string, string> = {}, method = 'POST') {
    return fetch(`${t.baseUrl}${path}`, {
      method,
      headers: { 'user-agent': HUMAN_UA, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  }

  async function expect422(response: Response, loc: Array<string | number>, type: string): Promise<void> {
    assert.equal(response.status, 422);
    const body = (await response.json()) as { detail: Issue[] };
    assert.ok(Array.isArray(body.detail) && body.detail.length > 0);
    for (const issue of body.detail) {
      assert.equal(typeof issue.msg, 'string');
      assert.equal(typeof issue.type, 'string');
    }
    const match = body.detail.find((issue) => JSON.stringify(issue.loc) === JSON.stringify(loc));
    assert.ok(match, `no issue at ${JSON.stringify(loc)}: ${JSON.stringify(body.detail)}`);
    assert.equal(match.type, type);
  }

  const long = (n: number) => 'x'.repeat(n);
  const book = { isbn_13: '9780441172719', rank: 1 };
  const ingest = (body: unknown) => post('/api/v1/ingest/lists', body, { 'x-api-key': ingestKey });

  it('list names of 201 characters (create and update) and descriptions of 2001', async () => {
    await expect422(await post('/api/v1/lists', { name: long(201) }), ['body', 'name'], 'string_too_long');
    const edit = { 'x-edit-token': token };
    await expect422(
      await post(`/api/v1/lists/${listId}`, { name: long(201) }, edit, 'PATCH'),
      ['body', 'name'],
      'string_too_long',
    );
    await expect422(
      await post(`/api/v1/lists/${listId}`, { description: long(2001) }, edit, 'PATCH'),
      ['body', 'description'],
      'string_too_long',
    );
    assert.equal((await post('/api/v1/lists', { name: long(200) })).status, 201);
  });

  it('a missing or non-integer book_id', async () => {
    const edit = { 'x-edit-token': token };
    await expect422(await post(`/api/v1/lists/${listId}/books`, {}, edit), ['body', 'book_id'], 'missing');
    await expect422(
      await post(`/api/v1/lists/${listId}/books`, { book_id: 'one' }, edit),
      ['body', 'book_id'],
      'int_parsing',
    );
  });

  it('101 edit tokens, and tokens of 65 characters', async () => {
    const many = Array.from({ length: 101 }, (_, i) => `token-${i}`);
    await expect422(
      await post('/api/v1/lists/mine', { edit_tokens: many }),
      ['body', 'edit_tokens'],
      'too_long',
    );
    await expect422(
      await post('/api/v1/lists/mine', { edit_tokens: ['ok', long(65)] }),
      ['body', 'edit_tokens', 1],
      'string_too_long',
    );
    await expect422(await post('/api/v1/lists/mine', {}), ['body', 'edit_tokens'], 'missing');
    assert.equal((await post('/api/v1/lists/mine', { edit_tokens: [long(64)] })).status, 200);
  });

  it('ingest lists of 501 books and of 0 books, and a missing list_source', async () => {
    await expect422(
      await ingest({ list_source: 'nyt', books: Array.from({ length: 501 }, () => book) }),
      ['body', 'books'],
      'too_long',
    );
    await expect422(await ingest({ list_source: 'nyt', books: [] }), ['body', 'books'], 'too_short');
    await expect422(await ingest({ books: [book] }), ['body', 'list_source'], 'missing');
    await expect422(
      await ingest({ list_source: long(101), books: [book] }),
      ['body', 'list_source'],
      'string_too_long',
    );
    await expect422(
      await ingest({ list_source: 'nyt', list_date: long(21), books: [book] }),
      ['body', 'list_date'],
      'string_too_long',
    );
    await expect422(
      await ingest({ list_source: 'nyt', books: [{ rank: 'first' }] }),
      ['body', 'books', 0, 'rank'],
      'int_parsing',
    );
  });

  it('saved events: a bad view_mode, an unknown event_type, a negative collection_size', async () => {
    const event = { event_type: 'saved_add', collection_size: 1 };
    await expect422(
      await post('/api/v1/events/saved', { ...event, view_mode: 'grid' }),
      ['body', 'view_mode'],
      'string_pattern_mismatch',
    );
    await expect422(
      await post('/api/v1/events/saved', { ...event, event_type: 'saved_explode' }),
      ['body', 'event_type'],
      'literal_error',
    );
    await expect422(
      await post('/api/v1/events/saved', { ...event, collection_size: -1 }),
      ['body', 'collection_size'],
      'greater_than_equal',
    );
    await expect422(
      await post('/api/v1/events/saved', { collection_size: 1 }),
      ['body', 'event_type'],
      'missing',
    );
    await expect422(
      await post('/api/v1/events/saved', { ...event, client_token: long(37) }),
      ['body', 'client_token'],
      'string_too_long',
    );
    await expect422(
      await post('/api/v1/events/saved', { ...event, book_slug: long(201) }),
      ['body', 'book_slug'],
      'string_too_long',
    );
  });

  it('logs valid saved events with 204', async () => {
    for (const view_mode of ['list', 'cover', 'card', null]) {
      const response = await post('/api/v1/events/saved', {
        event_type: 'saved_view_change',
        collection_size: 0,
        view_mode,
      });
      assert.equal(response.status, 204);
    }
    const rows = await context
      .store()
      .db.selectFrom('saved_events')
      .selectAll()
      .where('event_type', '=', 'saved_view_change')
      .execute();
    assert.deepEqual(rows.map((row) => row.view_mode).sort(), ['card', 'cover', 'list', null].sort());
  });
});
