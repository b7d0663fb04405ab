import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { addUser, PASSWORD } from '../integration/admin-support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, DESKTOP, launchChromium, PHONE } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';

const SUITE = 'admin destinations page: swatches under the CSP, fits a phone';

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;

    before(async () => {
      t = await startTestApp(context.store());
      await addUser(context.store(), 'admin@example.test', 'admin');
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
  });
}
