import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, launchChromium, PHONE } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';

const SUITE = 'API reference (/docs) and developer guide on a phone';

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;
    before(async () => {
      t = await startTestApp(context.store());
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    it("carries Booklink's name and fits a phone's width", async () => {
      const ctx = await browser.newContext(PHONE);
      await blockOutbound(ctx);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/docs`);
      assert.equal(await page.title(), 'Booklink API reference');
      const heading = page.locator('.swagger-ui .info .title');
      await heading.waitFor();
      assert.match((await heading.textContent()) ?? '', /Booklink.*1\.84\.0/);
      await page.locator('.opblock').first().waitFor();
      // Open one operation: its parameters and responses must fit too.
      await page.locator('.opblock-summary').first().click();
      await page.locator('.opblock-body').first().waitFor();
      const facts = await page.evaluate(() => ({
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        viewport: document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? null,
        innerWidth: window.innerWidth,
      }));
      assert.equal(facts.viewport, 'width=device-width, initial-scale=1');
      assert.equal(facts.innerWidth, PHONE.viewport.width);
      assert.ok(facts.overflow <= 0, `scrolls sideways by ${facts.overflow}px`);
      await ctx.close();
    });

    it("renders the footer's developer guide as HTML, keeping the markdown for agents", async () => {
      const ctx = await browser.newContext(PHONE);
      await blockOutbound(ctx);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/`);
      await page.locator('.site-footer').getByRole('link', { name: 'Developers' }).click();
      await page.waitForURL(/\/developers$/);
      assert.equal(await page.locator('h1').textContent(), 'Booklink for developers');
      assert.ok((await page.locator('main pre code').count()) >= 5);
      assert.ok(await page.getByRole('heading', { name: 'Embed a book on your site' }).isVisible());
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `scrolls sideways by ${overflow}px`);
      const markdown = await fetch(`${t.baseUrl}/developers.md`);
      assert.match(markdown.headers.get('content-type') ?? '', /text\/markdown/);
      assert.match(await markdown.text(), /^# Booklink for developers/);
      await ctx.close();
    });
  });
}
