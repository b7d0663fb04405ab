import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';

/** Values JSON Schema accepts but no database stores: every spelling of them answers 422, never 500. */
describeEachDialect('unstorable inputs', (context) => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '100000' });
  });
  after(() => t.close());

  it('refuses NUL characters and out-of-range integers however the URL spells them', async () => {
    // A list id is text (a public id), so the out-of-range integers go to a book id in a list's path.
    const cases: Array<[string, unknown[], string?]> = [
      ['/api/v1/lists/abc/books/1e309', ['path', 'book_id'], 'DELETE'],
      ['/api/v1/lists/abc/books/%31%65%33%30%39', ['path', 'book_id'], 'DELETE'],
      ['/api/v1/lists/abc/books/99999999999', ['path', 'book_id'], 'DELETE'],
      ['/api/v1/lists/abc%00', ['path', 'id']],
      ['/api/v1/search?q=dune%00', ['query', 'q']],
      ['/book/dune%00?sfid=1', ['path', 'slug']],
    ];
    for (const [path, loc, method = 'GET'] of cases) {
      const response = await fetch(`${t.baseUrl}${path}`, {
        method,
        redirect: 'manual',
        headers: { 'user-agent': 'Mozilla/5.0 Chrome/124' },
      });
      assert.equal(response.status, 422, path);
      const body = (await response.json()) as { detail: Array<{ loc: unknown[] }> };
      assert.deepEqual(body.detail[0]?.loc, loc, path);
    }
  });

  it('refuses them in JSON bodies too', async () => {
    const response = await fetch(`${t.baseUrl}/api/v1/search/miss`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 Chrome/124' },
      body: JSON.stringify({ query: 'x\u0000y', result_count: 1e308 }),
    });
    assert.equal(response.status, 422);
    const body = (await response.json()) as { detail: Array<{ loc: unknown[] }> };
    const locs = body.detail.map((issue) => JSON.stringify(issue.loc));
    assert.ok(locs.includes('["body","query"]'), locs.join(' '));
    assert.ok(locs.includes('["body","result_count"]'), locs.join(' '));
  });
});
