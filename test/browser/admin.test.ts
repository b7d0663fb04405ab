import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { addBook, addUser, PASSWORD } from '../integration/admin-support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import {
  artifactPath,
  blockOutbound,
  browserAvailable,
  DESKTOP,
  launchChromium,
} from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';

const SUITE = 'admin area in a browser';
const TABLET = { viewport: { width: 820, height: 1180 }, userAgent: DESKTOP.userAgent } as const;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A few weeks of clicks so the dashboard's charts have something to draw. */
async function seedClicks(t: TestApp, bookIds: number[]): Promise<void> {
  const rows = Array.from({ length: 400 }, (_, i) => ({
    book_id: bookIds[i % bookIds.length] ?? 1,
    destination_id: (i % 6) + 1,
    sfid: null,
    country: ['US', 'GB', 'DE', 'FR', null][i % 5] ?? null,
    referrer_host: ['news.example', 'blog.example', null][i % 3] ?? null,
    created_at: new Date(Date.now() - ((i * 7919) % 29) * 86_400_000 - (i % 50) * 60_000).toISOString(),
  }));
  await t.store.db.insertInto('clicks').values(rows).execute();
}

async function screenshots(
  browser: Browser,
  t: TestApp,
  cookies: Awaited<ReturnType<BrowserContext['cookies']>>,
  path: string,
  name: string,
) {
  for (const [label, device] of [
    ['desktop', DESKTOP],
    ['tablet', TABLET],
  ] as const) {
    const context = await browser.newContext(device);
    await blockOutbound(context);
    await context.addCookies(cookies);
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}${path}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name} at ${label} width scrolls sideways by ${overflow}px`);
    await page.screenshot({ path: artifactPath(`admin-${name}-${label}.png`), fullPage: true });
    await context.close();
  }
}

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;
    let bookId = 0;
    let otherId = 0;

    before(async () => {
      t = await startTestApp(context.store(), {}, { clickFlushIntervalMs: 20 });
      await addUser(context.store(), 'admin@example.test', 'admin');
      bookId = await addBook(context.store(), {
        slug: 'pride-and-prejudice',
        title: 'Pride and Prejudice',
        isbn13: '9780141439518',
        authors: ['Jane Austen'],
      });
      otherId = await addBook(context.store(), {
        slug: 'pride-and-prejudice-audio',
        title: 'Pride and Prejudice (Audiobook)',
        authors: ['Jane Austen'],
      });
      await seedClicks(t, [bookId, otherId]);
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    it('curates a book end to end and every change shows on the public page', async () => {
      const ctx = await browser.newContext(DESKTOP);
      await blockOutbound(ctx);
      const page: Page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/admin`);
      assert.match(page.url(), /\/admin\/login$/);
      await page.fill('#f-email', 'admin@example.test');
      await page.fill('#f-password', PASSWORD);
      await Promise.all([page.waitForURL(/\/admin$/), page.click('button:has-text("Sign in")')]);
      await page.getByRole('heading', { name: 'Analytics' }).waitFor();

      // A destination with a URL template; the preview updates as the template is typed.
      await page.goto(`${t.baseUrl}/admin/destinations/new`);
      await page.fill('#f-display_name', 'City Library');
      await page.fill('#f-slug', 'city-library');
      await page.selectOption('#f-group', 'library');
      await page.fill('#f-url_template', 'https://catalog.city.example/search?isbn={isbn13}');
      await page.waitForFunction(() =>
        document.querySelector('[data-role="preview-url"]')?.textContent?.includes('catalog.city.example'),
      );
      await page.check('input[type="checkbox"][name="is_public"]');
      await Promise.all([
        page.waitForURL(/\/admin\/destinations\/\d+/),
        page.click('button:has-text("Create destination")'),
      ]);
      const destinationId = /destinations\/(\d+)/.exec(page.url())?.[1] ?? '';

      // Attach it to the book with an active window.
      await page.goto(`${t.baseUrl}/admin/books/${bookId}`);
      await page.click('summary:has-text("Add a destination link")');
      await page.selectOption('#links #f-destination_id', destinationId);
      await page.fill('#links #f-label', 'Borrow at City Library');
      await page.fill('#links #f-active_from', day(-1));
      await page.fill('#links #f-active_until', day(365));
      await Promise.all([page.waitForURL(/notice=created/), page.click('button:has-text("Add link")')]);

      // Pin a search, link the other edition and make it canonical, edit the title.
      await page.fill('#pins #f-query', 'city book club pick');
      await Promise.all([page.waitForURL(/#pins/), page.click('button:has-text("Pin to this search")')]);
      await page.fill('#editions #f-target_book_id', String(otherId));
      await Promise.all([page.waitForURL(/#editions/), page.click('button:has-text("Link edition")')]);
      await Promise.all([
        page.waitForURL(/#editions/),
        page.click('#editions button:has-text("Make canonical") >> nth=1'),
      ]);
      await page.locator('#editions .is-canonical').waitFor();
      await page.fill('#edit #f-title', 'Pride and Prejudice (Annotated)');
      await Promise.all([page.waitForURL(/notice=saved/), page.click('button:has-text("Save details")')]);
      await screenshots(browser, t, await ctx.cookies(), `/admin/books/${bookId}`, 'book');
      await screenshots(browser, t, await ctx.cookies(), '/admin', 'dashboard');

      // The public page shows every change at once.
      await page.goto(`${t.baseUrl}/book/pride-and-prejudice`);
      await page.getByRole('heading', { name: 'Pride and Prejudice (Annotated)' }).waitFor();
      assert.ok((await page.locator('a[href="/go/pride-and-prejudice/city-library"]').count()) > 0);
      assert.match(await page.content(), /Borrow at City Library/);
      assert.ok((await page.locator('a[href="/book/pride-and-prejudice-audio"]').count()) > 0);
      await page.goto(`${t.baseUrl}/search?q=${encodeURIComponent('city book club pick')}`);
      assert.match(await page.content(), /Pride and Prejudice \(Annotated\)/);

      // Log out: the admin is closed.
      await page.goto(`${t.baseUrl}/admin`);
      await Promise.all([page.waitForURL(/\/admin\/login$/), page.click('button:has-text("Log out")')]);
      await page.goto(`${t.baseUrl}/admin/books/${bookId}`);
      assert.match(page.url(), /\/admin\/login$/);
      await ctx.close();
    });
  });
}
