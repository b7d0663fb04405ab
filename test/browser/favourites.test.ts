import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { BOT_UA, startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, DESKTOP, launchChromium, PHONE } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

const ISBN = '9780141439518';
const SUITE = 'favourite store and share panel in a browser';

async function clicksFor(t: TestApp, destinationSlug: string): Promise<Array<{ src: string | null }>> {
  // Twice: a flush that finds the timer's write already running may resolve before it.
  await t.services.clicks.flush();
  await t.services.clicks.flush();
  return t.store.db
    .selectFrom('clicks')
    .innerJoin('destinations', 'destinations.id', 'clicks.destination_id')
    .select('clicks.src')
    .where('destinations.slug', '=', destinationSlug)
    .execute();
}

async function favouriteCookie(context: BrowserContext): Promise<string | null> {
  const cookie = (await context.cookies()).find((entry) => entry.name === 'bl_fav');
  return cookie ? decodeURIComponent(cookie.value) : null;
}

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;
    let slug = '';

    before(async () => {
      t = await startTestApp(
        context.store(),
        { AFFILIATE_TAGS: 'kobo=kobotag' },
        { clickFlushIntervalMs: 20 },
      );
      await addCatalogEntry(context.store(), {
        isbn13: ISBN,
        isbn10: '0141439513',
        title: 'Pride and Prejudice',
        authors: ['Jane Austen'],
        publishedDate: '2002-12-31',
        format: 'paperback',
      });
      const created = await t.get(`/isbn/${ISBN}`);
      slug = (created.headers.get('location') ?? '').replace('/book/', '');
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    it('remembers a favourite store per format in a cookie, lists it first and goes there from /b/', async () => {
      const browserContext = await browser.newContext(DESKTOP);
      await blockOutbound(browserContext);
      const page = await browserContext.newPage();
      await page.goto(`${t.baseUrl}/book/${slug}`);
      const panel = page.locator('[data-fav]');
      await panel.waitFor({ state: 'visible' });
      const ebookFirst = await page
        .locator('section.group[data-group="ebook"] a.dest')
        .first()
        .getAttribute('data-destination');
      assert.notEqual(
        ebookFirst,
        'kobo',
        'without a choice Kobo is not first (else the test proves nothing)',
      );

      await page.selectOption('#fav-ebook', 'kobo');
      await page.getByRole('button', { name: 'Save my stores' }).click();
      await page.locator('.fav__status', { hasText: 'Saved' }).waitFor();
      assert.equal(await favouriteCookie(browserContext), 'ebook:kobo');

      // The page now lists Kobo first in its group, and the choice is shown again.
      await page.goto(`${t.baseUrl}/book/${slug}`);
      assert.equal(
        await page
          .locator('section.group[data-group="ebook"] a.dest')
          .first()
          .getAttribute('data-destination'),
        'kobo',
      );
      assert.equal(await page.locator('#fav-ebook').inputValue(), 'kobo');
      assert.match((await page.locator('.fav__status').textContent()) ?? '', /Ebooks: Rakuten Kobo/);

      // The short link goes straight to Kobo through /go/ (the click counts, with its placement). The
      // browser's own cookie jar is sent; redirects are read one at a time, as the browser follows them.
      const short = await page.request.get(`${t.baseUrl}/b/${slug}?src=bio`, { maxRedirects: 0 });
      assert.equal(short.status(), 302);
      const goUrl = short.headers().location ?? '';
      assert.match(goUrl, new RegExp(`^/go/${slug}/kobo\\?`));
      assert.equal(new URL(goUrl, t.baseUrl).searchParams.get('src'), 'bio');
      const store = await page.request.get(`${t.baseUrl}${goUrl}`, { maxRedirects: 0 });
      assert.equal(store.status(), 302);
      const landed = new URL(store.headers().location ?? '');
      assert.equal(landed.hostname, 'www.kobo.com');
      assert.deepEqual(
        (await clicksFor(t, 'kobo')).map((row) => row.src),
        ['bio'],
      );
      // So does /book/{slug}?go=1; plain /book/{slug} and ?full=1 show the page.
      const go = await page.request.get(`${t.baseUrl}/book/${slug}?go=1`, { maxRedirects: 0 });
      assert.match(go.headers().location ?? '', new RegExp(`^/go/${slug}/kobo`));
      for (const path of [`/book/${slug}`, `/b/${slug}?full=1`]) {
        const response = await page.goto(`${t.baseUrl}${path}`);
        assert.equal(response?.status(), 200, path);
        assert.equal((await page.locator('h1.title').textContent())?.trim(), 'Pride and Prejudice');
      }
      assert.match(
        (await page.locator('.fav__full a').getAttribute('href')) ?? '',
        /\/book\/[^?]+\?full=1$/,
        'the way back to the full page is visible on the page',
      );

      // Forget: the cookie is gone and the short link shows the page again.
      await page.getByRole('button', { name: 'Forget my stores' }).click();
      await page.locator('.fav__status', { hasText: 'Forgotten' }).waitFor();
      assert.equal(await favouriteCookie(browserContext), null);
      const shown = await page.goto(`${t.baseUrl}/b/${slug}`);
      assert.equal(shown?.status(), 200);
      assert.equal(new URL(page.url()).pathname, `/b/${slug}`);
      await browserContext.close();
    });

    it('always gives bots and link unfurlers the page, whatever their cookie says', async () => {
      for (const userAgent of [BOT_UA, 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)']) {
        const response = await t.get(`/b/${slug}`, {
          'user-agent': userAgent,
          cookie: 'bl_fav=ebook%3Akobo',
        });
        assert.equal(response.status, 200, userAgent);
        assert.match(await response.text(), /<h1 class="title">Pride and Prejudice/);
      }
      const reader = await t.get(`/b/${slug}`, { cookie: 'bl_fav=ebook%3Akobo' });
      assert.equal(reader.status, 302);
      assert.match(reader.headers.get('location') ?? '', new RegExp(`^/go/${slug}/kobo`));
    });

    it('shows the QR code of the short link, copy-link and the share sheet where there is one', async () => {
      const browserContext = await browser.newContext(PHONE);
      await blockOutbound(browserContext);
      const page = await browserContext.newPage();
      await page.goto(`${t.baseUrl}/book/${slug}`);
      const qr = page.locator('img.share-more__qr');
      await qr.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('img.share-more__qr');
        return img?.complete && img.naturalWidth > 0;
      });
      assert.equal(await qr.getAttribute('src'), `/book/${slug}/qr.svg`);
      const svg = await page.request.get(`${t.baseUrl}/book/${slug}/qr.svg`);
      assert.equal(svg.headers()['content-type'], 'image/svg+xml');
      assert.match(await svg.text(), /^<svg[^>]+viewBox/);
      const png = await page.request.get(`${t.baseUrl}/book/${slug}/qr.png`);
      assert.equal(png.headers()['content-type'], 'image/png');
      assert.deepEqual([...(await png.body()).subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);

      assert.ok(await page.locator('button[data-copy]').isVisible(), 'copy-link is offered');
      const hasShare = await page.evaluate(() => typeof navigator.share === 'function');
      assert.equal(await page.locator('button[data-share]').isVisible(), hasShare);
      if (!hasShare) {
        // Give the page a share sheet, as a phone browser has, and check the button uses it.
        // A string, not a function: the TypeScript loader's helpers do not exist in the page.
        await page.addInitScript({
          content:
            'window.sharedItems = []; Object.defineProperty(navigator, "share", { value: async (data) => { window.sharedItems.push(data); } });',
        });
        await page.reload();
      }
      await page.locator('button[data-share]').click();
      const shared = await page.evaluate(
        () => (window as unknown as { sharedItems?: unknown[] }).sharedItems ?? [],
      );
      if (!hasShare) {
        assert.deepEqual(shared, [{ title: 'Pride and Prejudice', url: `http://booklink.test/b/${slug}` }]);
      }
      await browserContext.close();
    });
  });
}
