import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { BOT_UA, HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

interface Issue {
  loc: (string | number)[];
  type: string;
  msg: string;
}

const BASE = 'http://booklink.test';

/** `POST /api/v1/clients/resolve` and every SPEC 8 limit of the resolve routes (422, SPEC 7 body). */
describeEachDialect('POST /api/v1/clients/resolve and resolve limits', (context) => {
  let t: TestApp;
  const post = (body: string, ua = HUMAN_UA) =>
    fetch(`${t.baseUrl}/api/v1/clients/resolve`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': ua },
      body,
    });
  const client = async (input: string, ua?: string) => {
    const response = await post(JSON.stringify({ input }), ua);
    assert.equal(response.status, 200, input);
    return (await response.json()) as Record<string, unknown>;
  };
  const issues = async (response: Response): Promise<Issue[]> => {
    assert.equal(response.status, 422);
    const body = (await response.json()) as { detail: Issue[] };
    for (const issue of body.detail) {
      assert.ok(Array.isArray(issue.loc) && typeof issue.msg === 'string' && typeof issue.type === 'string');
    }
    return body.detail;
  };

  before(async () => {
    t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '10000' });
    await addCatalogEntry(context.store(), {
      isbn13: '9780547928227',
      title: 'The Hobbit',
      authors: ['J.R.R. Tolkien'],
      popularity: 1000,
    });
    await addCatalogEntry(context.store(), {
      isbn13: '9780451524935',
      title: 'Nineteen Eighty-Four',
      authors: ['George Orwell'],
    });
  });
  after(() => t.close());

  it('reads a URL, an ISBN and text, and says which it saw', async () => {
    const url = await client('https://www.amazon.com/dp/054792822X?tag=x-20');
    assert.equal(url.input_kind, 'url');
    assert.equal(url.booklink_url, `${BASE}/book/the-hobbit-j-r-r-tolkien`);
    const isbn = await client('ISBN 978-0-451-52493-5', BOT_UA);
    assert.deepEqual(isbn, {
      status: 'not_found',
      search_url: `${BASE}/search?q=9780451524935`,
      input_kind: 'isbn',
    });
    const created = await client('978-0-451-52493-5');
    assert.equal(created.isbn, '9780451524935');
    const text = await client('the hobbit by tolkien');
    assert.equal(text.input_kind, 'text');
    assert.equal(text.status, 'found');
    assert.equal(text.title, 'The Hobbit');
    const vague = await client('zzqx unknown words');
    assert.deepEqual(vague, {
      status: 'not_found',
      search_url: `${BASE}/search?q=zzqx+unknown+words`,
      input_kind: 'text',
    });
  });

  it('answers 422 for an empty, too long, missing or malformed input', async () => {
    const empty = await issues(await post(JSON.stringify({ input: '' })));
    assert.deepEqual(empty[0]?.loc, ['body', 'input']);
    assert.equal(empty[0]?.type, 'string_too_short');
    const long = await issues(await post(JSON.stringify({ input: 'x'.repeat(2001) })));
    assert.equal(long[0]?.type, 'string_too_long');
    const missing = await issues(await post(JSON.stringify({})));
    assert.deepEqual(missing[0]?.loc, ['body', 'input']);
    assert.equal(missing[0]?.type, 'missing');
    const malformed = await issues(await post('{"input": '));
    assert.equal(malformed[0]?.type, 'json_invalid');
    const ok = await post(JSON.stringify({ input: 'x'.repeat(2000) }));
    assert.equal(ok.status, 200);
  });

  it('answers 422 for a url over 2000 or a source over 50 characters, on both resolve routes', async () => {
    const long = `https://www.amazon.com/dp/054792822X?q=${'a'.repeat(2001 - 39)}`;
    assert.equal(long.length, 2001);
    const api = await issues(await t.get(`/api/v1/resolve?${new URLSearchParams({ url: long })}`));
    assert.deepEqual(api[0]?.loc, ['query', 'url']);
    assert.equal(api[0]?.type, 'string_too_long');
    const page = await issues(await t.get(`/resolve?${new URLSearchParams({ url: long })}`));
    assert.deepEqual(page[0]?.loc, ['query', 'url']);
    const source = await issues(await t.get(`/api/v1/resolve?url=x&source=${'s'.repeat(51)}`));
    assert.deepEqual(source[0]?.loc, ['query', 'source']);
    const fits = await t.get(
      `/api/v1/resolve?${new URLSearchParams({ url: long.slice(0, 2000), source: 's'.repeat(50) })}`,
    );
    assert.equal(fits.status, 200);
  });

  it('documents the resolve routes in /openapi.json', async () => {
    const doc = (await (await t.get('/openapi.json')).json()) as { paths: Record<string, unknown> };
    for (const path of ['/resolve', '/api/v1/resolve', '/api/v1/clients/resolve']) {
      assert.ok(doc.paths[path], path);
    }
  });
});
