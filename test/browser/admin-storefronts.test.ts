import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addBook, addUser, PASSWORD } from '../integration/admin-support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, DESKTOP, launchChromium } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';

const SUITE =
  'admin: a destination with country storefronts, and a local bookshop, through the admin area alone';

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;

    before(async () => {
      t = await startTestApp(context.store());
      await addUser(context.store(), 'admin@example.test', 'admin');
      await addBook(context.store(), { slug: 'emma', title: 'Emma', isbn13: '9780141439587' });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    async function signIn(page: Page) {
      await page.goto(`${t.baseUrl}/admin/login`);
      await page.fill('#f-email', 'admin@example.test');
      await page.fill('#f-password', PASSWORD);
      await Promise.all([page.waitForURL(/\/admin$/), page.click('button:has-text("Sign in")')]);
    }

    /** Where the reader's /go/ link for `destination` leads for a reader in `country`. */
    async function goHost(destination: string, country: string): Promise<string> {
      const response = await t.get(`/go/emma/${destination}?country=${country}`);
      assert.equal(
        response.status,
        302,
        `${destination} in ${country}: ${response.status} ${(await response.text()).match(/<title>[^<]*|<h1[^>]*>[^<]*|<p[^>]*>[^<]*/g)?.join(' ')}`,
      );
      return new URL(response.headers.get('location') ?? '').host;
    }

    it('adds a destination with storefronts in three countries, and renaming it keeps them', async () => {
      const ctx = await browser.newContext(DESKTOP);
      await blockOutbound(ctx);
      const page = await ctx.newPage();
      await signIn(page);
      await page.goto(`${t.baseUrl}/admin/destinations/new`);
      await page.fill('#f-display_name', 'Libreria Europa');
      await page.fill('#f-slug', 'libreria-europa');
      await page.fill('#f-base_url', 'https://libreria.example');
      await page.fill('#f-url_template', 'https://libreria.example/book/{isbn13}');
      await page.fill('#f-countries', 'it, es, fr');
      await page.check('input[type=checkbox][name=is_public]');
      await page.fill(
        '#f-storefronts',
        [
          'IT https://libreria.example.it/libro/{isbn13}',
          'ES https://libreria.example.es/libro/{isbn13}',
          'FR https://libreria.example.fr/livre/{isbn13}',
        ].join('\n'),
      );
      await Promise.all([
        page.waitForURL(/notice=created/),
        page.click('button:has-text("Create destination")'),
      ]);
      assert.equal(await page.inputValue('#f-countries'), 'IT, ES, FR');
      await page.fill('#f-new_slug', 'libreria-nuova');
      await Promise.all([page.waitForURL(/notice=saved/), page.click('button:has-text("Save destination")')]);
      const fronts = (await page.inputValue('#f-storefronts')).split('\n').sort();
      assert.deepEqual(fronts, [
        'ES https://libreria.example.es/libro/{isbn13}',
        'FR https://libreria.example.fr/livre/{isbn13}',
        'IT https://libreria.example.it/libro/{isbn13}',
      ]);
      await page.getByText('Former slugs still redirecting: libreria-europa').waitFor();
      // A reader in each country is sent to that country's storefront, under the new name and the old.
      assert.equal(await goHost('libreria-nuova', 'IT'), 'libreria.example.it');
      assert.equal(await goHost('libreria-nuova', 'ES'), 'libreria.example.es');
      assert.equal(await goHost('libreria-europa', 'FR'), 'libreria.example.fr');
      const british = await (await t.get('/book/emma?country=GB')).text();
      assert.ok(!british.includes('data-destination="libreria-nuova"'), 'not offered outside its countries');
      const spanish = await (await t.get('/book/emma?country=ES')).text();
      assert.ok(spanish.includes('data-destination="libreria-nuova"'));
      await ctx.close();
    });

    it('adds a local bookshop limited to one country, with a preview on a sample book', async () => {
      const ctx = await browser.newContext(DESKTOP);
      await blockOutbound(ctx);
      const page = await ctx.newPage();
      await signIn(page);
      await page.goto(`${t.baseUrl}/admin/destinations`);
      await Promise.all([page.waitForURL(/local-shop$/), page.click('a:has-text("New local bookshop")')]);
      await page.fill('#f-display_name', 'The Corner Bookshop');
      await page.fill('#f-url_template', 'https://corner.example/book/{isbn13}');
      // The live preview (script) and the server's (the Preview button) show the same sample URL.
      await page
        .locator('[data-role="preview-url"]', { hasText: 'https://corner.example/book/9780141439518' })
        .waitFor();
      await Promise.all([page.waitForLoadState('load'), page.click('button:has-text("Preview")')]);
      assert.equal(
        await page.textContent('[data-role="preview-url"]'),
        'https://corner.example/book/9780141439518',
      );
      assert.equal(await page.inputValue('#f-display_name'), 'The Corner Bookshop');
      await page.fill('#f-countries', 'GB');
      await Promise.all([page.waitForURL(/notice=created/), page.click('button:has-text("Add bookshop")')]);
      assert.equal(await page.inputValue('#f-countries'), 'GB');
      const british = await (await t.get('/book/emma?country=GB')).text();
      assert.ok(british.includes('data-destination="the-corner-bookshop"'));
      const german = await (await t.get('/book/emma?country=DE')).text();
      assert.ok(!german.includes('data-destination="the-corner-bookshop"'));
      await ctx.close();
    });
  });
}
