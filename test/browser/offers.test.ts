import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, launchChromium, PHONE } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { eventually } from '../support/eventually.js';
import { addCatalogEntry } from '../support/factories.js';
import { type FakeBook, type FakeProviders, startFakeProviders } from '../support/fake-providers.js';

const SUITE = 'offers on the book page in a browser';
const BOOK: FakeBook = {
  isbn13: '9780007525645',
  title: 'The Browser Priced Book',
  authors: ['Ada Price'],
  googleId: 'browserVol01',
  offers: {
    google: { GB: { saleability: 'FOR_SALE', list: [12.99, 'GBP'], retail: [7.99, 'GBP'] } },
    itunes: { GB: { price: 6.99, currency: 'GBP', formattedPrice: '£6.99' } },
    openlibrary: 'checked out',
  },
};

describeEachDialect(SUITE, (context) => {
  if (!browserAvailable(SUITE)) return;
  let fake: FakeProviders;
  let t: TestApp;
  let browser: Browser;
  let slug = '';
  before(async () => {
    fake = await startFakeProviders();
    fake.addBook(BOOK);
    t = await startTestApp(context.store(), {
      ...fake.env,
      PROVIDERS: 'local,openlibrary,googlebooks,itunes',
      OFFER_SOURCES: 'googlebooks,itunes,openlibrary',
      OFFER_BUDGET_GOOGLEBOOKS: 'off',
      OFFER_BUDGET_ITUNES: 'off',
      OFFER_BUDGET_OPENLIBRARY: 'off',
    });
    await addCatalogEntry(context.store(), { isbn13: BOOK.isbn13, title: BOOK.title, authors: BOOK.authors });
    const created = await t.get(`/isbn/${BOOK.isbn13}`);
    slug = (created.headers.get('location') ?? '').replace('/book/', '');
    // The first visit queues the reads; the page shows the offers once they are stored.
    await eventually(async () => {
      const html = await (await t.get(`/book/${slug}?country=GB`)).text();
      return (html.match(/class="dest__offer"/g) ?? []).length === 3 ? true : undefined;
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t.close();
    await fake.close();
  });

  it('a reader on a phone sees the prices and the waitlist on the buttons, and the price opens the store’s own page', async () => {
    const context = await browser.newContext(PHONE);
    const outbound = await blockOutbound(context);
    const page = await context.newPage();
    await page.goto(`${t.baseUrl}/book/${slug}?country=GB`);
    const play = page.locator('a[data-destination="google-play"]');
    assert.equal(await play.locator('.dest__offer').innerText(), '£7.99');
    assert.ok(await play.locator('.dest__offer').isVisible());
    // The button's accessible description is when the price was read.
    const described = await play.getAttribute('aria-describedby');
    assert.match((await page.locator(`#${described}`).innerText()).trim(), /^Price as of /);
    assert.equal(
      await page.locator('a[data-destination="open-library"] .dest__offer').innerText(),
      'Join the waitlist',
    );
    const width = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok((width[0] ?? 0) <= (width[1] ?? 0), `no sideways scrolling: ${width.join(' > ')}`);
    await play.click();
    await eventually(async () => (outbound.navigations.length > 0 ? true : undefined));
    assert.match(
      outbound.navigations[0] ?? '',
      /^https:\/\/play\.google\.com\/store\/books\/details\?id=browserVol01/,
    );
    await context.close();
  });
});
