import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { createApiKey } from '../../src/store/api-keys.js';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

/**
 * SPEC 2.4 allows `null` for a body's optional values; a JSON null must be read as null, never
 * coerced to 0 or "" (`{"book_id": null}` was read as book 0 and refused with 422).
 */
describeEachDialect('null in request bodies', (context) => {
  let t: TestApp;
  let key: string;
  before(async () => {
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
    });
    key = (await createApiKey(context.store().db, { name: 'partner', scopes: ['ingest'] })).key;
    t = await startTestApp(context.store());
  });
  after(() => t.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'user-agent': HUMAN_UA, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('creates an empty list for {"name": "x", "book_id": null}', async () => {
    const response = await post('/api/v1/lists', { name: 'x', book_id: null });
    const text = await response.text();
    assert.equal(response.status, 201, text);
    const list = JSON.parse(text) as { name: string | null; books: unknown[]; edit_token: string };
    assert.equal(list.name, 'x');
    assert.deepEqual(list.books, []);
    const unnamed = await post('/api/v1/lists', { name: null, book_id: null });
    assert.equal(unnamed.status, 201);
    assert.equal(((await unnamed.json()) as { name: string | null }).name, null);
  });

  it('keeps an ingested row whose rank is null without a rank', async () => {
    const response = await post(
      '/api/v1/ingest/lists',
      {
        list_source: 'test',
        list_name: null,
        books: [{ isbn_13: '9780141439518', title: null, author: null, url: null, rank: null }],
      },
      { 'x-api-key': key },
    );
    const text = await response.text();
    assert.equal(response.status, 201, text);
    const result = JSON.parse(text) as { rows: { rank: number | null; status: string }[] };
    assert.equal(result.rows[0]?.status, 'found');
    assert.equal(result.rows[0]?.rank, null);
  });
});
