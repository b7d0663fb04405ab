import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { insertAccessCode, linkDestination } from '../../src/store/access-codes.js';
import { HUMAN_UA, startTestApp, type TestApp } from '../support/app.js';
import {
  artifactPath,
  blockOutbound,
  browserAvailable,
  DESKTOP,
  launchChromium,
  PHONE,
} from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry, addPrivateLibrary, inventedIsbn } from '../support/factories.js';

const SUITE = 'every reader page fits a 390 px phone and a 1366 px desktop';

// Words and addresses with no place to break: what pushes a page wider than a phone.
const LONG_WORD = 'Pneumonoultramicroscopicsilicovolcanoconiosisandantidisestablishmentarianism';
const LONG_URL = `https://www.example.org/a/very/long/address/${'segment-'.repeat(12)}end`;
const SERIES = `The ${LONG_WORD} Cycle`;
const AUTHOR = 'Maximiliana Wolfeschlegelsteinhausenbergerdorff';
const VOLUMES = [
  { n: 1, isbn: inventedIsbn(101), title: `${LONG_WORD} Rising` },
  { n: 2, isbn: inventedIsbn(102), title: `${LONG_WORD} Falling` },
];

const DESKTOP_WIDE = { ...DESKTOP, viewport: { width: 1366, height: 900 } } as const;
const VIEWPORTS = [
  { name: '390 px phone', options: PHONE },
  { name: '1366 px desktop', options: DESKTOP_WIDE },
] as const;

interface Overflow {
  scrollWidth: number;
  innerWidth: number;
  /** Elements whose box reaches outside the viewport, and are not inside a box that scrolls or clips. */
  outside: string[];
}

/**
 * Measured in the page: the document's width, and every element sticking out sideways. (No named
 * functions inside: tsx would wrap them in a helper the page does not have.)
 */
function measure(page: Page, width: number): Promise<Overflow> {
  return page.evaluate((width) => {
    const boxes: Array<{ node: Node; rect: DOMRect }> = Array.from(
      document.body.querySelectorAll('*'),
      (node) => ({ node, rect: node.getBoundingClientRect() }),
    );
    // Text may overflow the box it is in (a long word): measured apart from its element.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      boxes.push({ node, rect: range.getBoundingClientRect() });
    }
    const outside: string[] = [];
    for (const { node, rect } of boxes) {
      const element = node instanceof Element ? node : node.parentElement;
      if (!element || (rect.right <= width + 0.5 && rect.left >= -0.5)) continue;
      if (rect.width === 0 || rect.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.position === 'fixed') continue;
      // Inside a box that scrolls or clips (a `pre`, a table's wrapper), that box is what is measured.
      let clipped = false;
      const start = node instanceof Element ? element.parentElement : element;
      for (let parent = start; parent && parent !== document.body; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== 'visible') clipped = true;
      }
      if (clipped) continue;
      const text = (node.textContent ?? '').trim().slice(0, 40);
      outside.push(
        `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}"> ${Math.round(rect.left)}..${Math.round(rect.right)} "${text}"`,
      );
    }
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, outside };
  }, width);
}

/** The page boxes of these selectors (null where absent). */
function boxes(page: Page, selectors: readonly string[]): Promise<Array<DOMRect | null>> {
  return page.evaluate(
    (list) =>
      list.map((selector) => document.querySelector(selector)?.getBoundingClientRect().toJSON() ?? null),
    selectors,
  );
}

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;
    let slug = '';
    /** A book with another edition, a subtitle, a cover and a long description. */
    let bookSlug = '';
    let listUrl = '';
    const pages: Array<{ name: string; path: string; selector: string }> = [];

    before(async () => {
      t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '100000' });
      const store = context.store();
      for (const volume of VOLUMES) {
        await addCatalogEntry(store, {
          isbn13: volume.isbn,
          title: volume.title,
          authors: [AUTHOR],
          publisher: `${LONG_WORD} Press`,
          popularity: 100 - volume.n,
          identifiers: { series: `${SERIES}, #${volume.n}` },
        });
      }
      const created = await t.get(`/isbn/${VOLUMES[0]?.isbn}`);
      slug = (created.headers.get('location') ?? '').replace('/book/', '');
      assert.ok(slug, 'the first volume has a page');
      // Two editions of one work, so the book page also shows its other editions.
      const editions: string[] = [];
      for (const [n, format] of (['hardcover', 'paperback'] as const).entries()) {
        const edition = await t.services.creator.createFromRecord({
          source: 'test',
          isbn13: inventedIsbn(201 + n),
          isbn10: null,
          title: `${LONG_WORD} Rising`,
          subtitle: `A ${LONG_WORD} subtitle`,
          authors: [AUTHOR],
          publishedDate: '2020-05-01',
          publisher: `${LONG_WORD} Press`,
          coverUrl: `https://covers.example/${n}.jpg`,
          language: 'en',
          format,
          pages: 320,
          description: `A long description that names ${LONG_URL} and ${LONG_WORD}. `.repeat(8),
          identifiers: {},
          workKey: '/works/OL77W',
        });
        editions.push(edition.slug);
      }
      bookSlug = editions[0] ?? '';
      const book = await t.services.pages.load(slug);
      assert.ok(book);
      const made = await fetch(`${t.baseUrl}/api/v1/lists`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': HUMAN_UA },
        body: JSON.stringify({ name: `Reads about ${LONG_WORD}`, book_id: book.book.id }),
      });
      assert.equal(made.status, 201);
      const list = (await made.json()) as { id: string; edit_token: string; url: string };
      listUrl = new URL(list.url).pathname;
      const described = await fetch(`${t.baseUrl}/api/v1/lists/${list.id}`, {
        method: 'PATCH',
        headers: {
          'content-type': 'application/json',
          'user-agent': HUMAN_UA,
          'x-edit-token': list.edit_token,
        },
        body: JSON.stringify({ description: `All of them, listed at ${LONG_URL}` }),
      });
      assert.ok(described.ok, `list description: ${described.status}`);

      const library = await addPrivateLibrary(store, t.services.events);
      const code = await insertAccessCode(store.db, {
        displayName: 'Springfield patrons',
        slug: 'springfield',
        description: `Card holders: see ${LONG_URL}`,
        cookieTtlHours: 24,
        isActive: true,
      });
      await linkDestination(store.db, code.id, library);

      const seriesSlug = `the-${LONG_WORD.toLowerCase()}-cycle`;
      const authorSlug = AUTHOR.toLowerCase().replace(/\s+/g, '-');
      pages.push(
        { name: 'home', path: '/', selector: 'main' },
        { name: 'search', path: `/search?q=${encodeURIComponent(`${LONG_WORD} Falling`)}`, selector: 'main' },
        { name: 'search, empty', path: '/search', selector: 'main' },
        { name: 'search, no result', path: `/search?q=${LONG_WORD}${LONG_WORD}`, selector: 'main' },
        { name: 'book', path: `/book/${bookSlug}`, selector: '.where' },
        { name: 'book, compact', path: `/book/${bookSlug}?template=compact`, selector: '.where' },
        { name: 'book, card', path: `/book/${bookSlug}?template=card`, selector: '.where' },
        { name: 'short link', path: `/b/${bookSlug}`, selector: '.where' },
        { name: 'embed builder', path: `/book/${bookSlug}/embed`, selector: '#embed-code' },
        { name: 'embed iframe page', path: `/embed/${slug}`, selector: '.bl-btn' },
        { name: 'series', path: `/series/${seriesSlug}`, selector: 'main' },
        { name: 'author', path: `/author/${authorSlug}`, selector: 'main' },
        { name: 'list', path: listUrl, selector: '.list-item__title' },
        { name: 'saved', path: `/saved?books=${slug}`, selector: '.saved-item__title' },
        { name: 'unknown book', path: `/book/no-such-${LONG_WORD.toLowerCase()}`, selector: 'main' },
        { name: 'unknown ISBN', path: `/isbn/${inventedIsbn(999)}`, selector: 'main' },
        { name: 'bad ISBN', path: `/isbn/12345${LONG_WORD}`, selector: 'main' },
        {
          name: 'resolve notice',
          path: `/resolve?url=${encodeURIComponent(`https://shop.example/${LONG_WORD}-paperback`)}`,
          selector: '.search-notice',
        },
        { name: 'access page', path: '/access/springfield', selector: 'h1' },
        { name: 'unknown access code', path: `/access/${LONG_WORD.toLowerCase()}`, selector: 'h1' },
        { name: 'developers', path: '/developers', selector: 'main pre' },
      );
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    for (const viewport of VIEWPORTS) {
      it(`no page scrolls sideways or has an element sticking out at ${viewport.name}`, async () => {
        const ctx = await browser.newContext(viewport.options);
        await blockOutbound(ctx);
        const page = await ctx.newPage();
        const problems: string[] = [];
        for (const { name, path, selector } of pages) {
          await page.goto(`${t.baseUrl}${path}`);
          await page.locator(selector).first().waitFor({ state: 'attached' });
          // LAYOUT_SHOTS=1 keeps a full-page screenshot of each page in test/artifacts/, to look at.
          if (process.env.LAYOUT_SHOTS === '1')
            await page.screenshot({
              path: artifactPath(
                `layout-${name.replace(/\W+/g, '-')}-${viewport.options.viewport.width}.png`,
              ),
              fullPage: true,
            });
          const width = viewport.options.viewport.width;
          const found = await measure(page, width);
          // A phone widens its layout viewport (innerWidth) to a page wider than the screen.
          if (found.scrollWidth > width || found.innerWidth > width || found.outside.length > 0) {
            problems.push(
              `${name} (${path}): ${found.scrollWidth} px wide; ${found.outside.slice(0, 6).join('; ')}`,
            );
          }
        }
        assert.deepEqual(problems, []);
        await ctx.close();
      });
    }

    it('keeps the QR code in the share card near the top, and no embed builder, on a phone', async () => {
      const ctx = await browser.newContext(PHONE);
      await blockOutbound(ctx);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/book/${bookSlug}`);
      const share = page.locator('.share');
      assert.equal(await share.count(), 1);
      assert.equal(await share.locator('img.share-more__qr').count(), 1, 'the QR code is in the share card');
      assert.equal(await share.locator('#share-url').count(), 1, 'with the link to copy');
      const [card, hero, where] = await boxes(page, ['.share', '.hero', '.where']);
      assert.ok(card && hero && where);
      assert.ok(card.top >= hero.bottom, 'after the book itself');
      assert.ok(card.bottom <= where.top, 'before the stores');
      // The builder is a page for site owners, one link away.
      assert.equal(await page.locator('.embed-panel, #embed-code, [name="embed-kind"]').count(), 0);
      assert.equal(await page.getByText('Script (Shadow DOM)').count(), 0);
      const link = share.getByRole('link', { name: 'Embed this book on your site' });
      assert.equal(await link.getAttribute('href'), `/book/${bookSlug}/embed`);
      await ctx.close();
    });

    it('on a 1366 px desktop, puts the share card beside the book and spreads the stores over the width', async () => {
      const ctx = await browser.newContext(DESKTOP_WIDE);
      await blockOutbound(ctx);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/book/${bookSlug}`);
      const [share, hero, where] = await boxes(page, ['.share', '.hero', '.where']);
      const facts = await page.evaluate(() => {
        const main = document.querySelector('main.book');
        const style = main ? getComputedStyle(main) : null;
        const lefts = Array.from(document.querySelectorAll('.where .group'), (group) =>
          Math.round(group.getBoundingClientRect().left),
        );
        return {
          inner: main
            ? main.getBoundingClientRect().width -
              Number.parseFloat(style?.paddingLeft ?? '0') -
              Number.parseFloat(style?.paddingRight ?? '0')
            : 0,
          columns: new Set(lefts).size,
          groups: lefts.length,
        };
      });
      assert.ok(share && hero && where);
      assert.ok(share.left >= hero.right, 'the share card sits beside the book, on the right');
      assert.ok(share.top < hero.bottom, 'at the top of the page');
      assert.ok(share.top < DESKTOP_WIDE.viewport.height, 'in the first screen');
      assert.ok(where.width >= facts.inner - 1, `stores ${where.width} px of ${facts.inner} px`);
      const [favourites, editions] = await boxes(page, ['.fav', '.editions']);
      assert.ok(favourites && editions, 'the favourite stores and the other editions');
      assert.ok(favourites.top >= where.bottom && editions.top >= where.bottom, 'below the stores');
      assert.ok(Math.abs(favourites.top - editions.top) < 1, 'side by side');
      assert.ok(facts.groups >= 3, `${facts.groups} groups`);
      assert.ok(facts.columns >= 3, `the groups stand in ${facts.columns} columns`);
      await ctx.close();
    });
  });
}
