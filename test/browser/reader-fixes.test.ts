import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, DESKTOP, launchChromium, PHONE } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry, bookRecord } from '../support/factories.js';

const SUITE = 'what readers noticed: hover contrast, cover placeholders, format jumps';

/** sRGB channels (0-1) of a computed colour: `rgb(…)`, `rgba(…)` or `color(srgb …)`. */
function channels(color: string): [number, number, number] {
  const srgb = /color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)/.exec(color);
  if (srgb) return [Number(srgb[1]), Number(srgb[2]), Number(srgb[3])];
  const rgb = /rgba?\((\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?),\s*(\d+(?:\.\d+)?)/.exec(color);
  assert.ok(rgb, `unparsed colour ${color}`);
  return [Number(rgb[1]) / 255, Number(rgb[2]) / 255, Number(rgb[3]) / 255];
}

/** WCAG 2 contrast ratio. */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = channels(color).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((hi ?? 0) + 0.05) / ((lo ?? 0) + 0.05);
}

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;
    let slug = '';
    const fresh = async (device: typeof DESKTOP | typeof PHONE): Promise<BrowserContext> => {
      const ctx = await browser.newContext(device);
      await blockOutbound(ctx);
      return ctx;
    };

    before(async () => {
      t = await startTestApp(context.store());
      const book = await t.services.creator.createFromRecord({
        source: 'test',
        isbn13: '9780141439518',
        isbn10: null,
        title: 'Pride and Prejudice',
        subtitle: null,
        authors: ['Jane Austen'],
        publishedDate: null,
        publisher: null,
        // On this machine and missing: the image fails to load, as dead cover links do.
        coverUrl: `${t.baseUrl}/static/no-such-cover.jpg`,
        language: 'en',
        format: null,
        pages: null,
        description: null,
        identifiers: { gutenberg: '1342' },
        workKey: null,
      });
      slug = book.slug;
      // A fresh import: catalog entries, no featured list.
      for (const [i, title] of ['Dune', 'Emma', 'Persuasion'].entries()) {
        await addCatalogEntry(context.store(), {
          isbn13: ['9780441172719', '9780141439587', '9780141439686'][i] ?? null,
          title,
          authors: ['Some Author'],
          popularity: 1000 - i * 100,
        });
      }
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t.close();
    });

    for (const scheme of ['light', 'dark'] as const) {
      it(`keeps "Saved ✓" readable on hover right after the click (${scheme})`, async () => {
        const ctx = await fresh(DESKTOP);
        const page = await ctx.newPage();
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${t.baseUrl}/book/${slug}`);
        const save = page.locator('[data-save]');
        await save.click();
        assert.equal(await save.textContent(), 'Saved ✓');
        await save.hover();
        await page.waitForTimeout(250); // past any transition
        const colors = await save.evaluate((node) => {
          const style = getComputedStyle(node);
          return { fg: style.color, bg: style.backgroundColor };
        });
        const ratio = contrast(colors.fg, colors.bg);
        assert.ok(ratio >= 4.5, `contrast ${ratio.toFixed(2)}:1 (${colors.fg} on ${colors.bg})`);
        await ctx.close();
      });
    }

    it('shows the cover placeholder on /saved where a cover fails, never a broken image', async () => {
      const ctx = await fresh(DESKTOP);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/book/${slug}`);
      await page.locator('[data-save]').click();
      for (const path of ['/saved', `/saved?books=${slug}`]) {
        await page.goto(`${t.baseUrl}${path}`);
        await page.locator('.saved-item').first().waitFor();
        await page.waitForFunction(
          () => document.querySelector('.saved-item .saved-item__cover--missing') !== null,
        );
        const broken = await page.evaluate(
          () =>
            Array.from(document.querySelectorAll<HTMLImageElement>('.saved-item img')).filter(
              (img) => img.complete && img.naturalWidth === 0,
            ).length,
        );
        assert.equal(broken, 0, path);
      }
      await ctx.close();
    });

    it('shows popular books and the paste-a-store-link hint on a home page without featured lists', async () => {
      const ctx = await fresh(PHONE);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/`);
      const popular = page.getByRole('region', { name: 'Popular books' });
      assert.deepEqual(await popular.locator('.featured-list__name').allTextContents(), [
        'Dune',
        'Emma',
        'Persuasion',
      ]);
      assert.ok(await page.getByText('Paste it into the search box').isVisible());
      await popular.getByRole('link', { name: /Emma/ }).click();
      await page.waitForURL(/\/book\//);
      assert.equal(await page.locator('h1.title').textContent(), 'Emma');
      await ctx.close();
    });

    it('puts jump-to-format links near the top on a phone, each leading to its group', async () => {
      const ctx = await fresh(PHONE);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/book/${slug}`);
      const nav = page.getByRole('navigation', { name: 'Jump to a format' });
      const box = await nav.boundingBox();
      assert.ok(box && box.y + box.height < PHONE.viewport.height, `jump links at ${JSON.stringify(box)}`);
      const labels = await nav.locator('a').allTextContents();
      assert.ok(labels.includes('Buy new') && labels.includes('Read free'), labels.join(','));
      await nav.getByRole('link', { name: 'Read free' }).click();
      await page.waitForFunction(() => {
        const heading = document.getElementById('group-free');
        if (!heading) return false;
        const rect = heading.getBoundingClientRect();
        return rect.top >= 0 && rect.top < window.innerHeight / 2;
      });
      await ctx.close();
      const desktop = await fresh(DESKTOP);
      const wide = await desktop.newPage();
      await wide.goto(`${t.baseUrl}/book/${slug}`);
      assert.equal(await wide.getByRole('navigation', { name: 'Jump to a format' }).isVisible(), false);
      await desktop.close();
    });

    it('shows the Free group once a Gutenberg catalog import confirms a book created before it', async () => {
      const book = await t.services.creator.createFromRecord(
        bookRecord({ isbn13: '9780141439693', title: 'Northanger Abbey', authors: ['Jane Austen'] }),
      );
      const ctx = await browser.newContext(DESKTOP);
      const log = await blockOutbound(ctx);
      const page = await ctx.newPage();
      await page.goto(`${t.baseUrl}/book/${book.slug}`);
      assert.equal(await page.locator('section.group[data-group="free"]').count(), 0);
      // `booklink import pg_catalog.csv --format gutenberg` writes entries like this one.
      await addCatalogEntry(context.store(), {
        source: 'gutenberg',
        entryKey: 'gutenberg:121',
        title: 'Northanger Abbey',
        authors: ['Jane Austen'],
        identifiers: { gutenberg: '121' },
      });
      t.services.events.emit('book-changed', book.slug);
      await page.goto(`${t.baseUrl}/book/${book.slug}`);
      const free = page.locator('section.group[data-group="free"]');
      assert.ok(await free.isVisible());
      await free.locator('a[data-destination="gutenberg"]').click();
      await page.waitForURL(/gutenberg\.org/);
      assert.ok(log.navigations.includes('https://www.gutenberg.org/ebooks/121'), log.navigations.join(' '));
      await ctx.close();
    });
  });
}
