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
    const cases: Array<[string, unknown[]]> = [
      ['/api/v1/lists/1e309', ['path', 'id']],
      ['/api/v1/lists/%31%65%33%30%39', ['path', 'id']],
      ['/api/v1/lists/99999999999', ['path', 'id']],
      ['/api/v1/search?q=dune%00', ['query', 'q']],
      ['/book/dune%00?sfid=1', ['path', 'slug']],
    ];
    for (const [path, loc] of cases) {
      const response = await t.get(path);
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
