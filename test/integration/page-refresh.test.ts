import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services/container.js';
import { HUMAN_UA } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { addCatalogEntry } from '../support/factories.js';

const PAGE_CACHE_MS = 2000;

/**
 * A book page past PAGE_CACHE_MS is answered as it was while it is rendered again in the background
 * (stale while revalidate), so pages that expire together are not all rendered inside the requests
 * that found them stale; an edit still drops the page at once (page-replay.test.ts).
 */
describeEachDialect('book page refresh', (context) => {
  let app: FastifyInstance;
  let services: Services;
  let base = '';
  let slug = '';
  const page = async (path: string) => {
    const response = await fetch(`${base}${path}`, { headers: { 'user-agent': HUMAN_UA } });
    assert.equal(response.status, 200);
    return response.text();
  };

  before(async () => {
    const config = loadConfig({
      BASE_URL: 'http://booklink.test',
      DATABASE_URL: 'sqlite::memory:',
      PROVIDERS: 'local',
      PAGE_CACHE_MS: String(PAGE_CACHE_MS),
    });
    services = createServices(config, context.store());
    app = await buildApp({ services, logger: false });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    await addCatalogEntry(context.store(), {
      isbn13: '9780141439518',
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
      format: 'paperback',
    });
    const created = await fetch(`${base}/isbn/9780141439518`, {
      headers: { 'user-agent': HUMAN_UA },
      redirect: 'manual',
    });
    slug = String(created.headers.get('location')).replace('/book/', '');
    assert.ok(slug, 'the book was created');
  });
  after(async () => {
    await app.close();
    await services.close();
  });

  it('answers a stale page at once and renders it again in the background', async () => {
    assert.match(await page(`/book/${slug}`), /Pride and Prejudice/);
    // A change nothing announces (no book-changed event): the page may show it once it is stale.
    await context
      .store()
      .db.updateTable('books')
      .set({ title: 'Pride and Prejudice (Annotated)' })
      .where('slug', '=', slug)
      .execute();
    assert.doesNotMatch(await page(`/book/${slug}`), /Annotated/, 'fresh: the cached page');
    await sleep(PAGE_CACHE_MS + 100);
    assert.doesNotMatch(await page(`/book/${slug}`), /Annotated/, 'stale: answered as it was');
    const renewed = await eventually(async () => {
      const text = await page(`/book/${slug}`);
      return /Annotated/.test(text) ? text : undefined;
    });
    assert.match(renewed, /Pride and Prejudice \(Annotated\)/);
  });
});
