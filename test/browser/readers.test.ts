import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ACCESS_COOKIE } from '../../src/services/access-codes.js';
import { insertAccessCode, linkDestination } from '../../src/store/access-codes.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, DESKTOP, launchChromium } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { addPrivateLibrary, bookRecord } from '../support/factories.js';

const SUITE = 'readers in a browser: saved books, lists, access codes';
const TITLES = ['Alpha Stories', 'Bravo Poems', 'Charlie Essays'];

async function makeBooks(t: TestApp): Promise<string[]> {
  const slugs: string[] = [];
  for (const [i, title] of TITLES.entries()) {
    const book = await t.services.creator.createFromRecord(
      bookRecord({
        isbn13: ['9780141439518', '9780441172719', '9780316769488'][i] ?? null,
        title,
        authors: ['Dana Writer'],
        coverUrl: `https://covers.example/${i}.jpg`,
      }),
    );
    slugs.push(book.slug);
  }
  return slugs;
}

async function addPatronCode(t: TestApp): Promise<void> {
  const destinationId = await addPrivateLibrary(t.store, t.services.events);
  const code = await insertAccessCode(t.store.db, {
    displayName: 'Springfield patrons',
    slug: 'springfield',
    description: 'Card holders of the Springfield Public Library.',
    cookieTtlHours: 24,
    isActive: true,
  });
  await linkDestination(t.store.db, code.id, destinationId);
}

async function savedEventTypes(t: TestApp): Promise<string[]> {
  const rows = await t.store.db.selectFrom('saved_events').select('event_type').orderBy('id').execute();
  return rows.map((row) => row.event_type);
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`timed out waiting for ${what}`);
}

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;
    let slugs: string[] = [];
    const fresh = async (options: { javaScriptEnabled?: boolean } = {}): Promise<BrowserContext> => {
      const ctx = await browser.newContext({ ...DESKTOP, ...options });
      await blockOutbound(ctx);
      return ctx;
    };
    const titles = (page: Page, selector: string) => page.locator(selector).allTextContents();

    before(async () => {
      t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '100000' });
      slugs = await makeBooks(t);
      await addPatronCode(t);
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t.close();
    });

    it('saves three books, switches views, removes and undoes, shares to a fresh browser', async () => {
      const ctx = await fresh();
      const page = await ctx.newPage();
      for (const slug of slugs) {
        await page.goto(`${t.baseUrl}/book/${slug}`);
        await page.click('[data-save]');
        assert.equal(await page.getAttribute('[data-save]', 'aria-pressed'), 'true');
      }
      await page.goto(`${t.baseUrl}/saved`);
      assert.deepEqual(await titles(page, '.saved-item__title'), TITLES);
      await page.click('[data-view-mode="cover"]');
      assert.equal(await page.getAttribute('.saved-list', 'data-view'), 'cover');
      await page.click('[data-view-mode="card"]');
      assert.match((await page.getAttribute('.saved-list', 'class')) ?? '', /saved-list--card/);

      await page.click(`[data-remove="${slugs[1]}"]`);
      assert.deepEqual(await titles(page, '.saved-item__title'), [TITLES[0], TITLES[2]]);
      await page.click('[data-undo]');
      assert.deepEqual(await titles(page, '.saved-item__title'), TITLES);

      await page.click('[data-share]');
      const shared = await page.inputValue('.saved-share__url');
      assert.equal(new URL(shared).search, `?books=${slugs.join(',')}`);
      await until(async () => (await savedEventTypes(t)).includes('saved_share'), 'the share event');
      const events = await savedEventTypes(t);
      for (const type of [
        'saved_add',
        'saved_page_view',
        'saved_view_change',
        'saved_remove',
        'saved_undo',
      ]) {
        assert.ok(events.includes(type), `${type} in ${events.join(',')}`);
      }
      await ctx.close();

      // The shared link works in a browser that has never seen the collection, even without JavaScript.
      const other = await fresh({ javaScriptEnabled: false });
      const view = await other.newPage();
      await view.goto(shared);
      assert.deepEqual(await titles(view, '.saved-item__title'), TITLES);
      await other.close();
    });

    it('creates a list from a book page, adds a second book, opens the public list page', async () => {
      const ctx = await fresh();
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/book/${slugs[0]}`);
      await page.click('[data-lists-toggle]');
      await page.fill('[data-list-create] input[name="name"]', 'Weekend reads');
      await page.click('[data-list-create] button[type="submit"]');
      await page.waitForSelector('[data-lists-status] a');

      await page.goto(`${t.baseUrl}/book/${slugs[2]}`);
      await page.click('[data-lists-toggle]');
      const row = page.locator('[data-lists-mine] li', { hasText: 'Weekend reads' });
      await row.locator('button', { hasText: 'Add' }).click();
      await row.locator('button', { hasText: 'Added' }).waitFor();
      const href = (await page.getAttribute('[data-lists-status] a', 'href')) ?? '';

      await page.goto(`${t.baseUrl}${new URL(href).pathname}`);
      assert.equal(await page.textContent('h1'), 'Weekend reads');
      assert.deepEqual(await titles(page, '.list-item__title'), [TITLES[0], TITLES[2]]);
      await page.click(`.list-item__link[href="/book/${slugs[2]}"]`);
      assert.equal(await page.textContent('h1.title'), TITLES[2]);
      await ctx.close();
    });

    it('keeps a list this browser stored with a numeric id, from before list ids were text', async () => {
      // A list made before migration 0025: its public id is its number, which this browser kept as a number.
      const made = await fetch(`${t.baseUrl}/api/v1/lists`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 Chrome/124' },
        body: JSON.stringify({ name: 'Old shelf', book_id: null }),
      });
      const created = (await made.json()) as { id: string; edit_token: string };
      const { db } = t.store;
      const { id } = await db
        .selectFrom('lists')
        .select('id')
        .where('public_id', '=', created.id)
        .executeTakeFirstOrThrow();
      await db
        .updateTable('lists')
        .set({ public_id: String(id) })
        .where('id', '=', id)
        .execute();
      const stored = [{ id: Number(id), token: created.edit_token, name: 'Old shelf' }];

      const ctx = await fresh();
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/book/${slugs[1]}`);
      await page.evaluate(
        (lists) => localStorage.setItem('booklink.lists.v1', JSON.stringify(lists)),
        stored,
      );
      await page.reload();
      await page.click('[data-lists-toggle]');
      const row = page.locator('[data-lists-mine] li', { hasText: 'Old shelf' });
      await row.locator('button', { hasText: 'Add' }).click();
      await row.locator('button', { hasText: 'Added' }).waitFor();
      const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('booklink.lists.v1') ?? '[]'));
      assert.equal(kept.length, 1, 'the browser still holds the list and its token');
      const list = await (await t.get(`/api/v1/lists/${id}`)).json();
      assert.deepEqual(
        list.books.map((book: { slug: string }) => book.slug),
        [slugs[1]],
      );
      await ctx.close();
    });

    it('shows the private destination after an access-code link, and hides it once the cookie expires', async () => {
      const ctx = await fresh();
      const page = await ctx.newPage();
      const book = `${t.baseUrl}/book/${slugs[0]}`;
      await page.goto(book);
      assert.equal(await page.locator('text=Borrow from Springfield Library').count(), 0);

      await page.goto(`${t.baseUrl}/access/springfield`);
      assert.match((await page.textContent('h1')) ?? '', /Access unlocked/);
      await page.goto(book);
      await page.locator('a[data-destination="springfield-library"]').waitFor();

      // Advance the grant's expiry into the past: the server no longer honours it.
      const expired = t.services.access.sign(new Map([[1, Math.floor(Date.now() / 1000) - 1]]));
      await ctx.addCookies([{ name: ACCESS_COOKIE, value: expired, url: t.baseUrl }]);
      await page.goto(book);
      assert.equal(await page.locator('a[data-destination="springfield-library"]').count(), 0);

      await page.goto(`${t.baseUrl}/access/springfield`);
      await page.goto(book);
      assert.equal(await page.locator('a[data-destination="springfield-library"]').count(), 1);
      await ctx.clearCookies();
      await page.goto(book);
      assert.equal(await page.locator('a[data-destination="springfield-library"]').count(), 0);
      await ctx.close();
    });
  });
}
