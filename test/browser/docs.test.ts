import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, launchChromium, PHONE } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';

const SUITE = 'API reference (/docs) on a phone';

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
  });
}
