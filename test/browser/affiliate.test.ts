import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { addBook, addUser, PASSWORD } from '../integration/admin-support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, DESKTOP, launchChromium } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';

const SUITE =
  'admin: an amazon GB tag set in the browser reaches a UK reader, and untagged stores are listed';
const SLUG = 'emma-jane-austen';

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;

    before(async () => {
      t = await startTestApp(context.store(), {}, { clickFlushIntervalMs: 20 });
      await addUser(context.store(), 'admin@example.test', 'admin');
      await addBook(context.store(), {
        slug: SLUG,
        title: 'Emma',
        isbn13: '9780141439587',
        authors: ['Jane Austen'],
      });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    /**
     * A UK reader (Accept-Language en-GB) opens the book page and follows one store's link. The
     * browser asks our /go/ link; its 302 is read here and the store answered by a stub, because this
     * Chromium resolves a redirect's target before a context route can stub it (no network here).
     */
    async function readerFollows(ctx: BrowserContext, destination: string): Promise<URL> {
      const page = await ctx.newPage();
      const redirects: string[] = [];
      await page.route(
        (url) => url.pathname.startsWith('/go/'),
        async (route) => {
          const response = await route.fetch({ maxRedirects: 0 });
          assert.equal(response.status(), 302);
          redirects.push(response.headers().location ?? '');
          await route.fulfill({ status: 200, contentType: 'text/html', body: '<title>store stub</title>' });
        },
      );
      await page.goto(`${t.baseUrl}/book/${SLUG}`);
      const link = page.locator(`section.group a.dest[data-destination="${destination}"]`).first();
      assert.match(
        (await link.getAttribute('href')) ?? '',
        new RegExp(`^/go/${SLUG}/${destination}\\?country=GB`),
      );
      await Promise.all([page.waitForURL(/\/go\//), link.click()]);
      await page.close();
      assert.equal(redirects.length, 1, `the ${destination} link went through /go/`);
      return new URL(redirects[0] ?? '');
    }

    it('signs in, tags amazon GB, and a UK reader goes to amazon.co.uk with it; untagged stores are listed', async () => {
      const reader = await browser.newContext({ ...DESKTOP, locale: 'en-GB' });
      await blockOutbound(reader);
      const untagged = await readerFollows(reader, 'amazon');
      assert.equal(untagged.hostname, 'www.amazon.co.uk');
      assert.equal(untagged.searchParams.get('tag'), null, 'no tag before one is set');
      assert.equal((await readerFollows(reader, 'kindle')).hostname, 'www.amazon.co.uk');

      const ctx = await browser.newContext(DESKTOP);
      await blockOutbound(ctx);
      const admin = await ctx.newPage();
      await admin.goto(`${t.baseUrl}/admin/login`);
      await admin.fill('#f-email', 'admin@example.test');
      await admin.fill('#f-password', PASSWORD);
      await Promise.all([admin.waitForURL(/\/admin$/), admin.click('button:has-text("Sign in")')]);
      await admin.getByRole('link', { name: 'Affiliate tags' }).click();
      await admin.getByRole('heading', { name: 'Affiliate tags', level: 1 }).waitFor();
      const row = admin.locator('tr[data-store="amazon.GB"]');
      await row.getByLabel('Tag for amazon.GB').fill('mytag-21');
      await Promise.all([
        admin.waitForURL(/\/admin\/affiliate\?notice=saved$/),
        row.getByRole('button', { name: 'Save' }).click(),
      ]);
      await admin.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      assert.match((await row.textContent()) ?? '', /set here/);

      const tagged = await readerFollows(reader, 'amazon');
      assert.equal(tagged.hostname, 'www.amazon.co.uk');
      assert.equal(tagged.searchParams.get('tag'), 'mytag-21');

      await t.services.clicks.flush();
      await t.services.clicks.flush();
      await admin.reload();
      const list = admin.locator('table[data-role="untagged"]');
      const counts = await list.locator('tbody tr').evaluateAll((rows) =>
        rows.map((tr) => {
          const cells = Array.from(tr.querySelectorAll('td')).map((td) => td.textContent?.trim() ?? '');
          return [tr.getAttribute('data-untagged'), cells[2]];
        }),
      );
      assert.deepEqual(
        counts.sort(),
        [
          ['amazon.GB', '1'],
          ['kindle.GB', '1'],
        ],
        'the click made before the tag, and Kindle UK, which has none',
      );
      await reader.close();
      await ctx.close();
    });
  });
}
