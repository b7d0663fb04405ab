import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { READER_LANGUAGES } from '../../src/domain/reader-languages.js';
import { CATALOGUES } from '../../src/http/i18n/catalogue.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { blockOutbound, browserAvailable, DESKTOP, launchChromium, PHONE } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry, inventedIsbn } from '../support/factories.js';

const SUITE = 'reader pages in eight languages, by Accept-Language alone (issue 44)';
const WIDTHS = [
  { name: 'phone', ...PHONE },
  { name: 'desktop', ...DESKTOP, viewport: { width: 1366, height: 900 } },
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The English interface text that must not show in `language`: every English message without
 * arguments whose translation differs (a word both languages share, like "Format", may show).
 */
function englishOnly(language: string): RegExp[] {
  const english = CATALOGUES.en;
  const other = CATALOGUES[language as keyof typeof CATALOGUES];
  return Object.entries(english)
    .filter(([key, text]) => !text.includes('{') && other[key] !== text && text.length >= 4)
    .map(([, text]) => new RegExp(`(^|[^\\p{L}])${escapeRegExp(text)}($|[^\\p{L}])`, 'u'));
}

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let t: TestApp;
    let browser: Browser;
    let paths: Array<{ name: string; path: string }> = [];

    before(async () => {
      t = await startTestApp(context.store(), { RATE_LIMIT_ANON: '100000' });
      await addCatalogEntry(t.store, {
        isbn13: '9780141439518',
        title: 'Pride and Prejudice',
        authors: ['Jane Austen'],
        format: 'paperback',
      });
      const created = await t.get('/isbn/9780141439518');
      const slug = (created.headers.get('location') ?? '').replace('/book/', '');
      const loaded = await t.services.pages.load(slug);
      assert.ok(loaded, 'the book exists');
      const list = await fetch(`${t.baseUrl}/api/v1/lists`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Austen', book_id: loaded.book.id }),
      });
      const { url } = (await list.json()) as { url: string };
      paths = [
        { name: 'home', path: '/' },
        { name: 'search', path: '/search?q=zzqx%20nothing%20matches' },
        { name: 'book', path: `/book/${slug}` },
        { name: 'list', path: new URL(url).pathname },
        { name: 'saved', path: '/saved' },
        { name: 'unknown ISBN', path: `/isbn/${inventedIsbn(777)}` },
        { name: 'bad ISBN', path: '/isbn/1234567890123' },
        { name: 'embed', path: `/embed/${slug}` },
      ];
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await t.close();
    });

    for (const language of READER_LANGUAGES) {
      it(`${language}: every page carries lang="${language}", fits and shows no English interface text`, async () => {
        const forbidden = language === 'en' ? [] : englishOnly(language);
        for (const { name: width, ...device } of WIDTHS) {
          const ctx = await browser.newContext({ ...device, locale: language, extraHTTPHeaders: {} });
          await ctx.setExtraHTTPHeaders({ 'accept-language': `${language};q=1` });
          await blockOutbound(ctx);
          const page = await ctx.newPage();
          for (const { name, path } of paths) {
            await page.goto(`${t.baseUrl}${path}`);
            const where = `${language} ${width} ${name}`;
            assert.equal(await page.getAttribute('html', 'lang'), language, where);
            const overflow = await page.evaluate(
              () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
            );
            assert.ok(overflow <= 0, `${where}: ${overflow}px of horizontal overflow`);
            // Store names are not translated ("Spotify Audiobooks"): they are taken out first.
            const text = await page.evaluate(() => {
              // A search link's name follows its verb ("Bei <name> suchen"): the verb stays in.
              const names = Array.from(document.querySelectorAll('.dest__name, .bl-btn')).map((element) => {
                const name = element.cloneNode(true);
                if (!(name instanceof Element)) return '';
                const parts = name.querySelectorAll('.dest__verb, .dest__label, .bl-label, .bl-sr');
                for (const part of Array.from(parts)) part.remove();
                return name.textContent?.trim() ?? '';
              });
              let visible = document.body.innerText;
              for (const name of names.filter(Boolean)) visible = visible.replaceAll(name, ' ');
              return visible;
            });
            const english = forbidden
              .filter((pattern) => pattern.test(text))
              .map((pattern) => pattern.source);
            assert.deepEqual(english, [], `${where}: English interface text`);
          }
          await ctx.close();
        }
      });
    }
  });
}
