import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { addBook, addUser, PASSWORD } from '../integration/admin-support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, DESKTOP, launchChromium, PHONE } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';

const SUITE = 'admin: destination swatches under the CSP on a phone, editions linked by ISBN or address';

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;
    let bookId = 0;

    before(async () => {
      t = await startTestApp(context.store());
      await addUser(context.store(), 'admin@example.test', 'admin');
      bookId = await addBook(context.store(), {
        slug: 'emma-hardback',
        title: 'Emma',
        isbn13: '9780141439587',
      });
      await addBook(context.store(), { slug: 'emma-paperback', title: 'Emma', isbn13: '9780141439600' });
      await addBook(context.store(), { slug: 'emma-audio', title: 'Emma (Audiobook)' });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    for (const [label, device] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      it(`shows brand swatches without a CSP error and without sideways scrolling (${label})`, async () => {
        const ctx = await browser.newContext(device);
        await blockOutbound(ctx);
        const page = await ctx.newPage();
        const errors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        await page.goto(`${t.baseUrl}/admin/login`);
        await page.fill('#f-email', 'admin@example.test');
        await page.fill('#f-password', PASSWORD);
        await Promise.all([page.waitForURL(/\/admin$/), page.click('button:has-text("Sign in")')]);
        await page.goto(`${t.baseUrl}/admin/destinations`);
        await page.getByRole('heading', { name: 'Destinations' }).waitFor();
        const facts = await page.evaluate(() => {
          const swatches = Array.from(document.querySelectorAll<HTMLElement>('.swatch'));
          return {
            count: swatches.length,
            colours: new Set(swatches.map((node) => getComputedStyle(node).backgroundColor)).size,
            styleAttributes: document.querySelectorAll('[style]').length,
            overflow: document.documentElement.scrollWidth - window.innerWidth,
            table: document.querySelector('table.data--destinations')?.getBoundingClientRect().width ?? 0,
          };
        });
        assert.deepEqual(errors, []);
        assert.ok(facts.count >= 10, `${facts.count} swatches`);
        // Brand colours applied (the fallback grey alone would be one colour).
        assert.ok(facts.colours >= 3, `${facts.colours} distinct swatch colours`);
        assert.ok(facts.overflow <= 0, `scrolls sideways by ${facts.overflow}px`);
        assert.ok(facts.table <= device.viewport.width, `table ${facts.table}px wide`);
        await ctx.close();
      });
    }

    it('links editions by ISBN or page address, and names a reference that matches nothing', async () => {
      const ctx = await browser.newContext(DESKTOP);
      await blockOutbound(ctx);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/admin/login`);
      await page.fill('#f-email', 'admin@example.test');
      await page.fill('#f-password', PASSWORD);
      await Promise.all([page.waitForURL(/\/admin$/), page.click('button:has-text("Sign in")')]);
      await page.goto(`${t.baseUrl}/admin/books/${bookId}`);
      const field = page.locator('#editions #f-target_book_id');
      for (const reference of ['978-0-14-143960-0', `${t.baseUrl}/book/emma-audio`]) {
        await field.fill(reference);
        await Promise.all([
          page.waitForURL(/notice=saved/),
          page.click('#editions button:has-text("Link edition")'),
        ]);
      }
      const listed = await page.locator('#editions .plain-list a').allTextContents();
      assert.deepEqual(listed.sort(), ['Emma', 'Emma', 'Emma (Audiobook)']);
      await page.locator('#editions #f-target_book_id').fill('no-such-book');
      await page.click('#editions button:has-text("Link edition")');
      assert.match(
        (await page.locator('#editions').textContent()) ?? '',
        /No book has this ISBN, address or id/,
      );
      await ctx.close();
    });
  });
}
