import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, Page, Request } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.js';
import {
  artifactPath,
  blockOutbound,
  browserAvailable,
  DESKTOP,
  launchChromium,
  PHONE,
} from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

const ISBN = '9780141439518';
const SUITE = 'book page in a browser';

/** What the reader sees of the layout: overflow, and where the cover and title sit. */
async function layoutFacts(page: Page) {
  // One flat function: the TypeScript loader would wrap nested named functions in a helper the page lacks.
  return page.evaluate(() => {
    const img = document.querySelector<HTMLImageElement>('img.cover__img');
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      coverLoaded: img ? img.complete && img.naturalWidth > 0 : false,
    };
  });
}

async function clickCount(t: TestApp): Promise<number> {
  await t.services.clicks.flush();
  const row = await t.store.db
    .selectFrom('clicks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;
    let bookPath = '';

    before(async () => {
      t = await startTestApp(context.store(), { AFFILIATE_TAGS: 'amazon=booklinktest-20,bookshop=4242' });
      await addCatalogEntry(context.store(), {
        isbn13: ISBN,
        isbn10: '0141439513',
        title: 'Pride and Prejudice',
        authors: ['Jane Austen'],
        publishedDate: '2002-12-31',
        publisher: 'Penguin Classics',
        format: 'paperback',
        coverUrl: `https://covers.openlibrary.org/b/isbn/${ISBN}-L.jpg`,
      });
      await addCatalogEntry(context.store(), {
        source: 'gutenberg',
        entryKey: 'gutenberg:1342',
        title: 'Pride and Prejudice',
        authors: ['Jane Austen'],
        identifiers: { gutenberg: '1342' },
      });
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    it('creates the book from /isbn/ and shows its destination groups, every link through /go/', async () => {
      const page = await (await browser.newContext(DESKTOP)).newPage();
      await blockOutbound(page.context());
      const response = await page.goto(`${t.baseUrl}/isbn/${ISBN}`);
      assert.equal(response?.status(), 200);
      bookPath = new URL(page.url()).pathname;
      assert.match(bookPath, /^\/book\/pride-and-prejudice/);
      assert.equal((await page.locator('h1.title').textContent())?.trim(), 'Pride and Prejudice');
      assert.match((await page.locator('.authors').textContent()) ?? '', /Jane Austen/);

      const groups = await page
        .locator('section.group[data-group]')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-group')));
      assert.ok(new Set(groups).size >= 5, `groups: ${groups.join(', ')}`);
      const hrefs = await page
        .locator('section.group a.dest')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('href') ?? ''));
      assert.ok(hrefs.length >= 15, `only ${hrefs.length} links`);
      for (const href of hrefs) assert.match(href, /^\/go\/[^/]+\/[^/?]+/);
      await page.context().close();
    });

    it('a click goes through /go/, is counted, and lands on the store with the affiliate tag', async () => {
      const page = await (await browser.newContext(DESKTOP)).newPage();
      const outbound = await blockOutbound(page.context());
      await page.goto(`${t.baseUrl}${bookPath}`);
      const before = await clickCount(t);
      const link = page.locator('section.group a.dest[data-destination="amazon"]').first();
      const href = (await link.getAttribute('href')) ?? '';
      assert.match(href, /^\/go\/pride-and-prejudice[^/]*\/amazon/);
      const navigations: Request[] = [];
      page.on('request', (request) => {
        if (request.isNavigationRequest() && request.frame() === page.mainFrame()) navigations.push(request);
      });
      await link.click();
      await page.waitForURL(/^https:\/\/www\.amazon\./);

      // The browser asked our /go/ link, which answered 302 to the store: nothing else in between.
      // (Chromium reports an intercepted redirect target twice, hence the Set.)
      const goUrl = `${t.baseUrl}${href}`;
      const landed = outbound.navigations[0] ?? '';
      assert.deepEqual(outbound.navigations, [landed]);
      assert.deepEqual([...new Set(navigations.map((request) => request.url()))], [goUrl, landed]);
      const redirect = navigations.find((request) => request.redirectedFrom()?.url() === goUrl);
      assert.equal(redirect?.url(), landed);
      assert.equal((await redirect?.redirectedFrom()?.response())?.status(), 302);
      assert.equal(new URL(landed).searchParams.get('tag'), 'booklinktest-20');
      assert.equal(await clickCount(t), before + 1);
      await page.context().close();
    });

    for (const [name, device] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      it(`looks right at ${name} width (${device.viewport.width}px)`, async () => {
        const page = await (await browser.newContext(device)).newPage();
        await blockOutbound(page.context());
        await page.goto(`${t.baseUrl}${bookPath}`, { waitUntil: 'load' });
        await page.screenshot({
          path: artifactPath(`book-page-${name}-${context.dialect}.png`),
          fullPage: true,
        });
        // What the reader sees before scrolling, at full resolution.
        await page.screenshot({ path: artifactPath(`book-page-${name}-${context.dialect}-fold.png`) });
        const facts = await layoutFacts(page);
        assert.ok(facts.scrollWidth <= facts.innerWidth, `horizontal overflow: ${JSON.stringify(facts)}`);
        assert.ok(facts.coverLoaded, 'the cover image did not load');
        await assertInside(page, 'figure.cover', facts.innerWidth);
        await assertInside(page, 'h1.title', facts.innerWidth);
        assert.ok(await page.locator('section.group').first().isVisible());
        await page.context().close();
      });
    }
  });
}

async function assertInside(page: Page, selector: string, width: number): Promise<void> {
  const locator = page.locator(selector).first();
  assert.ok(await locator.isVisible(), `${selector} is not visible`);
  const box = await locator.boundingBox();
  assert.ok(box && box.width > 0 && box.height > 0, `${selector} has no size`);
  assert.ok(box.x >= 0 && box.x + box.width <= width, `${selector} sticks out: ${JSON.stringify(box)}`);
}
