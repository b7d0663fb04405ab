import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addBook, addUser, PASSWORD } from '../integration/admin-support.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, launchChromium, PHONE } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';

const SUITE = 'admin: every page at 390 px, no word broken mid-word, no table wider than the screen';

interface Layout {
  overflow: number;
  tables: Array<{ width: number; containerOverflow: number }>;
  brokenWords: string[];
  breakAll: string[];
}

/** What a reader of the page at this width meets: sideways scrolling, wide tables, words split over lines. */
function measure(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const brokenWords: string[] = [];
    const breakAll: string[] = [];
    const tables = Array.from(document.querySelectorAll('table')).map((table) => {
      const container = table.parentElement ?? table;
      return {
        width: table.getBoundingClientRect().width,
        containerOverflow: container.scrollWidth - container.clientWidth,
      };
    });
    for (const cell of Array.from(document.querySelectorAll<HTMLElement>('td, th'))) {
      const style = getComputedStyle(cell);
      if (style.wordBreak === 'break-all' || style.wordBreak === 'break-word')
        breakAll.push(cell.textContent ?? '');
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        // A word: letters and digits (a slug may wrap at its hyphens, a path at its slashes).
        for (const match of text.matchAll(/[\p{L}\p{N}]{2,}/gu)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top)));
          if (tops.size > 1) brokenWords.push(match[0]);
        }
      }
    }
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      tables,
      brokenWords,
      breakAll,
    };
  });
}

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;
    let bookId = 0;
    let listId = 0;

    before(async () => {
      t = await startTestApp(context.store());
      await addUser(context.store(), 'admin@example.test', 'admin');
      bookId = await addBook(context.store(), {
        slug: 'the-incomprehensibilities-of-extraordinariness',
        title: 'The Incomprehensibilities of Extraordinariness',
        isbn13: '9780141439587',
        authors: ['Bartholomew Featherstonehaugh'],
      });
      await addBook(context.store(), { slug: 'emma', title: 'Emma', isbn13: '9780141439600' });
      const list = await context
        .store()
        .db.insertInto('lists')
        .values({
          public_id: 'abcdefghjk12',
          kind: 'admin',
          name: 'Unputdownable autobiographies',
          is_featured: 0,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      listId = Number(list.id);
      await context
        .store()
        .db.insertInto('list_items')
        .values({
          list_id: listId,
          book_id: bookId,
          position: 1,
          rank: 1,
          created_at: new Date().toISOString(),
        })
        .execute();
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t?.close();
    });

    it('lays out every admin page within the screen', async () => {
      const ctx = await browser.newContext(PHONE);
      await blockOutbound(ctx);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/admin/login`);
      await page.fill('#f-email', 'admin@example.test');
      await page.fill('#f-password', PASSWORD);
      await Promise.all([page.waitForURL(/\/admin$/), page.click('button:has-text("Sign in")')]);
      const destination = await t.store.db
        .selectFrom('destinations')
        .select('id')
        .where('slug', '=', 'audible')
        .executeTakeFirst();
      const paths = [
        '/admin',
        '/admin/books',
        `/admin/books/${bookId}`,
        '/admin/destinations',
        ...(destination ? [`/admin/destinations/${destination.id}`] : []),
        '/admin/pins',
        '/admin/lists',
        `/admin/lists/${listId}`,
        '/admin/access-codes',
        '/admin/partners',
        '/admin/keys',
        '/admin/users',
        '/admin/audit',
        '/admin/brand',
      ];
      const problems: string[] = [];
      let tablesSeen = 0;
      for (const path of paths) {
        const response = await page.goto(`${t.baseUrl}${path}`);
        assert.equal(response?.status(), 200, path);
        const layout = await measure(page);
        tablesSeen += layout.tables.length;
        if (layout.overflow > 0) problems.push(`${path}: the page scrolls sideways by ${layout.overflow}px`);
        for (const [i, table] of layout.tables.entries()) {
          if (table.width > PHONE.viewport.width)
            problems.push(`${path}: table ${i} is ${Math.round(table.width)}px wide`);
          if (table.containerOverflow > 0)
            problems.push(`${path}: table ${i} scrolls sideways by ${table.containerOverflow}px`);
        }
        if (layout.brokenWords.length > 0)
          problems.push(`${path}: words broken over lines: ${layout.brokenWords.join(', ')}`);
        if (layout.breakAll.length > 0)
          problems.push(`${path}: cells with word-break: ${layout.breakAll.join(', ')}`);
      }
      assert.deepEqual(problems, []);
      assert.ok(tablesSeen >= 6, `${tablesSeen} tables measured`);
      await ctx.close();
    });

    it("shows the book's cover on its edit page", async () => {
      await t.store.db
        .updateTable('books')
        .set({ cover_url: `${t.baseUrl}/static/favicon.svg` })
        .where('id', '=', bookId)
        .execute();
      const ctx = await browser.newContext(PHONE);
      await blockOutbound(ctx);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/admin/login`);
      await page.fill('#f-email', 'admin@example.test');
      await page.fill('#f-password', PASSWORD);
      await Promise.all([page.waitForURL(/\/admin$/), page.click('button:has-text("Sign in")')]);
      await page.goto(`${t.baseUrl}/admin/books/${bookId}`);
      const cover = page.locator('img.admin-cover');
      await cover.waitFor();
      assert.equal(await cover.getAttribute('src'), `${t.baseUrl}/static/favicon.svg`);
      assert.ok(
        await cover.evaluate((img) => (img as HTMLImageElement).naturalWidth > 0),
        'the cover loaded',
      );
      await ctx.close();
    });
  });
}
