import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

interface RawResponse {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request whose body is read as sent (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string>): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describeEachDialect('compressed pages and styles', (context) => {
  let t: TestApp;
  let slug = '';
  before(async () => {
    t = await startTestApp(context.store());
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      format: 'paperback',
    });
    const created = await t.get('/isbn/9780141439518');
    slug = (created.headers.get('location') ?? '').replace('/book/', '');
  });
  after(() => t.close());

  it('sends the book page as brotli or gzip when accepted, the same page as without', async () => {
    const plain = await rawGet(`${t.baseUrl}/book/${slug}`, {});
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.match(plain.body.toString(), /Pride and Prejudice/);
    assert.match(String(plain.headers.vary), /Accept-Encoding/);

    const br = await rawGet(`${t.baseUrl}/book/${slug}`, { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(br.body.length < plain.body.length / 2, 'the page shrinks');
    assert.equal(brotliDecompressSync(br.body).toString(), plain.body.toString());

    const gzip = await rawGet(`${t.baseUrl}/book/${slug}`, { 'accept-encoding': 'gzip, br;q=0' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gzip.body).toString(), plain.body.toString());
    assert.equal(gzip.headers['content-length'], String(gzip.body.length));
  });

  it('sends text assets compressed and leaves images alone', async () => {
    const plain = await rawGet(`${t.baseUrl}/static/styles.css`, {});
    const br = await rawGet(`${t.baseUrl}/static/styles.css`, { 'accept-encoding': 'br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.body).toString(), plain.body.toString());
    const identity = await rawGet(`${t.baseUrl}/static/styles.css`, { 'accept-encoding': 'identity' });
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.deepEqual(identity.body, plain.body);
  });
});
