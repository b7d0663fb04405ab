import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, launchChromium, PHONE } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';

const SUITE = "the operator's brand in a browser: logo, accent per theme, disclosure, under the CSP";

/** A valid 1×1 PNG, written here (no fixture file). */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const ACTOR = { id: null, email: 'test' };

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;

    before(async () => {
      t = await startTestApp(context.store());
      const brand = t.services.admin.brand;
      const saved = await brand.save(ACTOR, {
        siteName: 'Riverside Books',
        accentLight: '#7a2e00',
        accentDark: '',
        disclosure: 'Riverside earns a little from some links.',
        defaultLanguage: '',
        defaultCountry: '',
        contactEmail: '',
      });
      assert.ok(saved.ok);
      assert.ok((await brand.uploadLogo(ACTOR, PNG)).ok);
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    for (const scheme of ['light', 'dark'] as const) {
      it(`shows the logo and the ${scheme} theme's accent without a CSP error`, async () => {
        const ctx = await browser.newContext({ ...PHONE, colorScheme: scheme });
        await blockOutbound(ctx);
        const page = await ctx.newPage();
        const errors: string[] = [];
        page.on('console', (message) => {
          if (message.type() === 'error') errors.push(message.text());
        });
        await page.goto(`${t.baseUrl}/`);
        const facts = await page.evaluate(() => {
          const logo = document.querySelector<HTMLImageElement>('img.brand__logo');
          return {
            accent: getComputedStyle(document.documentElement).getPropertyValue('--accent').trim(),
            logo: logo ? logo.complete && logo.naturalWidth > 0 : false,
            brand: document.querySelector('.brand')?.textContent?.trim(),
            footer: document.querySelector('.site-footer__disclosure')?.textContent?.trim(),
          };
        });
        assert.deepEqual(errors, []);
        // The dark theme keeps the stylesheet's own accent: the operator set only a light one.
        assert.equal(facts.accent, scheme === 'light' ? '#7a2e00' : '#9fb5ff');
        assert.equal(facts.logo, true);
        assert.equal(facts.brand, 'Riverside Books');
        assert.equal(facts.footer, 'Riverside earns a little from some links.');
        await ctx.close();
      });
    }
  });
}
