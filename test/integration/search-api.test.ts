import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { addCatalogEntry } from '../support/factories.js';

interface Issue {
  loc: Array<string | number>;
  type: string;
  msg: string;
}

describeEachDialect('/api/v1/search and search feedback', (context) => {
  let t: TestApp;
  const post = (path: string, body: unknown) =>
    fetch(`${t.baseUrl}${path}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
  const firstIssue = async (response: Response) => ((await response.json()) as { detail: Issue[] }).detail[0];
  before(async () => {
    const store = context.store();
    // Many API calls in one minute: the rate limit has its own tests.
    t = await startTestApp(store, { RATE_LIMIT_ANON: '10000' }, { searchLogFlushIntervalMs: 20 });
    for (let i = 1; i <= 8; i++) {
      await addCatalogEntry(store, {
        isbn13: null,
        entryKey: `test:dune${i}`,
        title: `Dune Chronicle Volume ${i}`,
        authors: ['Frank Herbert'],
        popularity: 100 - i,
      });
    }
    await addCatalogEntry(store, {
      isbn13: '9780441172719',
      title: 'Dune',
      authors: ['Frank Herbert'],
      popularity: 900_000,
      coverUrl: 'https://covers.example/dune.jpg',
      publishedDate: '1990-09-01',
    });
  });
  after(() => t.close());

  it('answers found with the SPEC 2.3 shape and absolute pick links', async () => {
    const response = await t.get('/api/v1/search?q=dune%20herbert&source=app-test');
    assert.equal(response.status, 200);
    const body = (await response.json()) as { status: string; results: Array<Record<string, unknown>> };
    assert.equal(body.status, 'found');
    assert.equal(body.results.length, 5, 'limit defaults to 5');
    assert.deepEqual(body.results[0], {
      title: 'Dune',
      authors: ['Frank Herbert'],
      cover_url: 'https://covers.example/dune.jpg',
      isbn: '9780441172719',
      published_date: '1990-09-01',
      search_url: 'http://booklink.test/search?q=dune+herbert&pick=1',
    });
    // The API's search log is written off the request path, within a flush interval.
    const logged = await eventually(() =>
      context
        .store()
        .db.selectFrom('searches')
        .selectAll()
        .where('source', '=', 'app-test')
        .executeTakeFirst(),
    );
    assert.equal(logged.channel, 'api');
    assert.equal(logged.result_count, 5);
    const twenty = (await (await t.get('/api/v1/search?q=dune&limit=20')).json()) as { results: unknown[] };
    assert.equal(twenty.results.length, 9);
  });

  it('answers not_found with an empty list', async () => {
    const body = await (await t.get('/api/v1/search?q=qwertyuiop%20zxcvb')).json();
    assert.deepEqual(body, { status: 'not_found', results: [], incomplete: false });
  });

  it('gives the SPEC 7 422 body for every limit', async () => {
    const cases: Array<[string, Array<string | number>, string]> = [
      ['/api/v1/search', ['query', 'q'], 'missing'],
      [`/api/v1/search?q=${'a'.repeat(501)}`, ['query', 'q'], 'string_too_long'],
      ['/api/v1/search?q=dune&limit=0', ['query', 'limit'], 'greater_than_equal'],
      ['/api/v1/search?q=dune&limit=21', ['query', 'limit'], 'less_than_equal'],
      ['/api/v1/search?q=dune&limit=abc', ['query', 'limit'], 'int_parsing'],
      [`/api/v1/search?q=dune&source=${'s'.repeat(51)}`, ['query', 'source'], 'string_too_long'],
    ];
    for (const [path, loc, type] of cases) {
      const response = await t.get(path);
      assert.equal(response.status, 422, path);
      const issue = await firstIssue(response);
      assert.deepEqual(issue?.loc, loc, path);
      assert.equal(issue?.type, type, path);
      assert.equal(typeof issue?.msg, 'string');
    }
    assert.equal((await t.get(`/api/v1/search?q=${'a'.repeat(500)}`)).status, 200);
  });

  it('stores search feedback, misses and votes', async () => {
    const feedback = await post('/api/v1/search/feedback', {
      query: 'dune',
      parsed_title: 'dune',
      result_count: 5,
      clicked_position: 2,
      clicked_book_id: null,
      top_results_json: '[]',
    });
    assert.equal(feedback.status, 201);
    const rows = await context.store().db.selectFrom('search_feedback').selectAll().execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.clicked_position, 2);
    const miss = await post('/api/v1/search/miss', {
      query: 'lost book',
      result_count: 0,
      details: 'Blue cover',
    });
    assert.equal(miss.status, 201);
    const sfid = (await context.store().db.selectFrom('searches').select('id').executeTakeFirstOrThrow()).id;
    assert.equal((await post(`/api/v1/search/${sfid}/vote`, { feedback: 'negative' })).status, 201);
    const votes = await context.store().db.selectFrom('search_votes').selectAll().execute();
    assert.deepEqual(
      votes.map((v) => [Number(v.sfid), v.feedback]),
      [[Number(sfid), 'negative']],
    );
    assert.equal((await post('/api/v1/search/999999/vote', { feedback: 'positive' })).status, 404);
  });

  it('validates feedback bodies as SPEC 2.4 says', async () => {
    const bad: Array<[string, unknown, Array<string | number>, string]> = [
      ['/api/v1/search/feedback', { result_count: 1, clicked_position: 1 }, ['body', 'query'], 'missing'],
      [
        '/api/v1/search/feedback',
        { query: 'x', result_count: -1, clicked_position: 1 },
        ['body', 'result_count'],
        'greater_than_equal',
      ],
      [
        '/api/v1/search/feedback',
        { query: 'x', result_count: 1, clicked_position: 0 },
        ['body', 'clicked_position'],
        'greater_than_equal',
      ],
      [
        '/api/v1/search/feedback',
        { query: 'x', parsed_author: 'a'.repeat(301), result_count: 1, clicked_position: 1 },
        ['body', 'parsed_author'],
        'string_too_long',
      ],
      [
        '/api/v1/search/miss',
        { query: 'x', result_count: 0, details: 'd'.repeat(2001) },
        ['body', 'details'],
        'string_too_long',
      ],
      [
        '/api/v1/search/miss',
        { query: 'q'.repeat(501), result_count: 0 },
        ['body', 'query'],
        'string_too_long',
      ],
      ['/api/v1/search/1/vote', { feedback: 'meh' }, ['body', 'feedback'], 'literal_error'],
    ];
    for (const [path, body, loc, type] of bad) {
      const response = await post(path, body);
      assert.equal(response.status, 422, `${path} ${JSON.stringify(body).slice(0, 60)}`);
      const issues = ((await response.json()) as { detail: Issue[] }).detail;
      assert.ok(
        issues.some((issue) => JSON.stringify(issue.loc) === JSON.stringify(loc) && issue.type === type),
        JSON.stringify(issues),
      );
    }
  });

  it('documents the search API in /openapi.json', async () => {
    const doc = (await (await t.get('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string }> }>>;
    };
    const names = doc.paths['/api/v1/search']?.get?.parameters?.map((p) => p.name);
    assert.deepEqual(names?.sort(), ['limit', 'q', 'source']);
    assert.ok(doc.paths['/api/v1/search/{sfid}/vote']?.post);
  });
});
