import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.js';
import {
  artifactPath,
  blockOutbound,
  browserAvailable,
  DESKTOP,
  launchChromium,
} from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

const SUITE = 'search in a browser';

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;

    before(async () => {
      t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '10000' });
      // Two different works share the query's words, so the search cannot be confident and lists both.
      await addCatalogEntry(context.store(), {
        isbn13: '9780547928210',
        title: 'The Fellowship of the Ring',
        authors: ['J.R.R. Tolkien'],
        publishedDate: '2012-09-18',
        popularity: 500,
      });
      await addCatalogEntry(context.store(), {
        isbn13: '9780060853983',
        title: 'The Ring of Solomon',
        authors: ['Jonathan Stroud'],
        publishedDate: '2010-11-02',
        popularity: 400,
        // A cover host that is gone: the page must show the placeholder, not a broken image.
        coverUrl: 'http://127.0.0.1:9/gone.jpg',
      });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    it('searches, sees results, picks one and lands on the created book page', async () => {
      const browserContext = await browser.newContext(DESKTOP);
      await blockOutbound(browserContext);
      const page = await browserContext.newPage();
      await page.goto(`${t.baseUrl}/`);
      const box = page.locator('input[name="q"]').first();
      await box.fill('ring');
      await Promise.all([page.waitForURL(/\/search\?q=ring/), box.press('Enter')]);
      const titles = await page.locator('.search-result__title').allTextContents();
      assert.ok(titles.includes('The Fellowship of the Ring'), titles.join(' | '));
      assert.ok(titles.includes('The Ring of Solomon'), titles.join(' | '));
      await page.waitForFunction(() => document.querySelectorAll('img.search-result__cover').length === 0);
      assert.equal(await page.locator('.search-result__cover--none').count(), titles.length);
      await page.screenshot({ path: artifactPath(`search-results-${context.dialect}.png`), fullPage: true });

      const link = page.locator('.search-result__link', { hasText: 'The Ring of Solomon' });
      const href = (await link.getAttribute('href')) ?? '';
      assert.match(href, /\/search\?q=ring&pick=\d+&sfid=\d+/);
      await Promise.all([page.waitForURL(/\/book\//), link.click()]);
      assert.match(page.url(), /\/book\/the-ring-of-solomon-jonathan-stroud/);
      assert.equal(await page.locator('h1').first().textContent(), 'The Ring of Solomon');
      const book = await context
        .store()
        .db.selectFrom('books')
        .select('slug')
        .where('isbn13', '=', '9780060853983')
        .executeTakeFirst();
      assert.equal(book?.slug, 'the-ring-of-solomon-jonathan-stroud');
      await browserContext.close();
    });
  });
}
