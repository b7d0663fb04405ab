import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { loadConfig } from '../../src/config.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type Services } from '../../src/services/container.js';
import type { Store } from '../../src/store/db.js';
import { blockOutbound, browserAvailable, DESKTOP, launchChromium } from '../support/browser.js';
import { describeEachDialect } from '../support/databases.js';
import { bookRecord } from '../support/factories.js';

const SUITE = 'drop-in embed on another origin under a strict CSP';
const ISBN = '9780141439518';
const PARTNER = 'acme-books';

/** A free loopback port, so the app's BASE_URL (its absolute /go/ URLs) names where it really listens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The embedding site: another origin (another port), its own strict policy and hostile styles. */
function hostSite(booklink: string, slug: string): Server {
  const policy = [
    "default-src 'none'",
    `script-src ${booklink}`,
    `connect-src ${booklink}`,
    `img-src https: ${booklink}`,
    `frame-src ${booklink}`,
    "style-src 'self'",
  ].join('; ');
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A book blog</title>
<link rel="stylesheet" href="/blog.css"></head><body>
<h1>My review</h1>
<script src="${booklink}/embed.js" data-book="${ISBN}" data-partner="${PARTNER}" async></script>
<p class="bl" id="outside">The blog's own paragraph, with a class the embed also uses.</p>
<iframe id="frame" title="Where to get Pride and Prejudice" src="${booklink}/embed/${slug}?partner=${PARTNER}" width="100%" height="120"></iframe>
<script src="${booklink}/embed.js" async></script>
</body></html>`;
  // Blog styles that would wreck the widget if they leaked in.
  const css =
    'a { color: rgb(255, 0, 0) !important; font-size: 40px; } .bl-btn { display: none; } p { font-family: serif; }';
  return createServer((request, response) => {
    if (request.url === '/blog.css') {
      response.writeHead(200, { 'content-type': 'text/css' }).end(css);
      return;
    }
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': policy,
    });
    response.end(page);
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function clickCount(services: Services, store: Store): Promise<number> {
  await services.clicks.flush();
  const rows = await store.db.selectFrom('clicks').select('id').execute();
  return rows.length;
}

function frameOf(page: Page): Frame {
  const frame = page.frames().find((candidate) => candidate.url().includes('/embed/'));
  assert.ok(frame, 'the iframe loaded');
  return frame;
}

if (browserAvailable(SUITE)) {
  describeEachDialect(SUITE, (context) => {
    let services: Services;
    let close: () => Promise<void>;
    let booklink = '';
    let blog = '';
    let host: Server;
    let browser: Browser;
    let browserContext: BrowserContext;
    let page: Page;
    let slug = '';
    const consoleErrors: string[] = [];
    const requests: string[] = [];

    before(async () => {
      const port = await freePort();
      booklink = `http://127.0.0.1:${port}`;
      const config = loadConfig({ BASE_URL: booklink, DATABASE_URL: 'sqlite::memory:', PROVIDERS: 'local' });
      services = createServices(config, context.store(), { clickFlushIntervalMs: 50 });
      const app = await buildApp({ services });
      await app.listen({ port, host: '127.0.0.1' });
      close = async () => {
        await app.close();
        await services.close();
      };
      const book = await services.creator.createFromRecord(
        bookRecord({
          isbn13: ISBN,
          isbn10: '0141439513',
          title: 'Pride and Prejudice',
          authors: ['Jane Austen'],
          coverUrl: `https://covers.example/${ISBN}.jpg`,
        }),
      );
      slug = book.slug;
      host = hostSite(booklink, book.slug);
      blog = await listen(host);
      browser = await launchChromium();
      browserContext = await browser.newContext(DESKTOP);
      await blockOutbound(browserContext);
      page = await browserContext.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') consoleErrors.push(message.text());
      });
      browserContext.on('request', (request) => requests.push(request.url()));
      await page.goto(`${blog}/`);
      await page.locator('.booklink-embed .bl-btn').first().waitFor();
    });
    after(async () => {
      await browser?.close();
      await new Promise((resolve) => host?.close(resolve));
      await close?.();
    });

    it('renders the script embed in a Shadow DOM, with no style leaking either way', async () => {
      const facts = await page.evaluate(() => {
        const hostEl = document.querySelector('.booklink-embed');
        const root = hostEl?.shadowRoot;
        const button = root?.querySelector('.bl-btn');
        const outside = document.getElementById('outside');
        return {
          title: root?.querySelector('.bl-title')?.textContent ?? null,
          authors: root?.querySelector('.bl-authors')?.textContent ?? null,
          groups: Array.from(root?.querySelectorAll('.bl-gtitle') ?? [], (node) => node.textContent),
          buttons: root?.querySelectorAll('.bl-btn').length ?? 0,
          buttonDisplay: button ? getComputedStyle(button).display : null,
          buttonColor: button ? getComputedStyle(button).color : null,
          buttonFont: button ? getComputedStyle(button).fontSize : null,
          adopted: root?.adoptedStyleSheets.length ?? 0,
          outsideBorder: outside ? getComputedStyle(outside).borderTopWidth : null,
          outsidePadding: outside ? getComputedStyle(outside).paddingTop : null,
          cover: root?.querySelector('img.bl-cover')?.getAttribute('src') ?? null,
        };
      });
      assert.equal(facts.title, 'Pride and Prejudice');
      assert.equal(facts.authors, 'by Jane Austen');
      assert.ok(facts.groups.includes('Buy new'), facts.groups.join(','));
      assert.ok(facts.buttons >= 5, `${facts.buttons} buttons`);
      assert.equal(facts.adopted, 1, 'styled through a constructable stylesheet');
      // The blog's `a { color: red !important; font-size: 40px }` and `.bl-btn { display: none }`.
      assert.equal(facts.buttonDisplay, 'inline-flex');
      assert.notEqual(facts.buttonColor, 'rgb(255, 0, 0)');
      assert.notEqual(facts.buttonFont, '40px');
      // The embed's `.bl` rule does not reach the blog's own `.bl` paragraph.
      assert.equal(facts.outsideBorder, '0px');
      assert.equal(facts.outsidePadding, '0px');
      assert.equal(facts.cover, `https://covers.example/${ISBN}.jpg`);
    });

    it('loads under the strict policy: no violation, nothing from a third party but the cover', async () => {
      assert.deepEqual(
        consoleErrors.filter((text) => /Content Security Policy|Refused/i.test(text)),
        [],
      );
      const origins = new Set(requests.map((url) => new URL(url).origin));
      origins.delete(blog);
      origins.delete(booklink);
      assert.deepEqual([...origins], ['https://covers.example']);
    });

    it('sizes the iframe to its content (postMessage), so it never scrolls inside', async () => {
      const frame = frameOf(page);
      await frame.locator('.bl-btn').first().waitFor();
      await page.waitForFunction(() => {
        const element = document.getElementById('frame');
        return element instanceof HTMLIFrameElement && element.getBoundingClientRect().height > 200;
      });
      const inside = await frame.evaluate(() => ({
        scrollHeight: document.documentElement.scrollHeight,
        innerHeight: window.innerHeight,
        buttons: Array.from(document.querySelectorAll<HTMLAnchorElement>('.bl-btn'), (a) => a.href),
      }));
      assert.ok(inside.scrollHeight <= inside.innerHeight, `${inside.scrollHeight} > ${inside.innerHeight}`);
      assert.ok(inside.buttons.length >= 5);
      for (const href of inside.buttons) {
        assert.equal(new URL(href).origin, booklink);
        assert.equal(new URL(href).searchParams.get('partner'), PARTNER);
      }
    });

    it('works from the keyboard: Tab reaches a button, Enter goes through /go/ with the partner', async () => {
      const before = await clickCount(services, context.store());
      await page.locator('h1').click();
      await page.keyboard.press('Tab'); // the book title
      await page.keyboard.press('Tab'); // the first button
      const focused = await page.evaluate(() => {
        const active = document.querySelector('.booklink-embed')?.shadowRoot?.activeElement;
        return active instanceof HTMLAnchorElement
          ? { className: active.className, href: active.href, name: active.textContent }
          : null;
      });
      assert.ok(focused?.className.includes('bl-btn'), `focused: ${JSON.stringify(focused)}`);
      if (!focused) return;
      assert.match(focused.name ?? '', /opens in a new tab/);
      const popup = browserContext.waitForEvent('page');
      await page.keyboard.press('Enter');
      const opened = await popup;
      await opened.waitForLoadState();
      const go = requests.find((url) => url.startsWith(`${booklink}/go/`));
      assert.ok(go, 'the click went through /go/');
      assert.equal(new URL(go).searchParams.get('partner'), PARTNER);
      assert.equal(go, focused.href);
      // /go/ redirected to the store (stubbed by blockOutbound) and counted the click.
      assert.doesNotMatch(opened.url(), /127\.0\.0\.1/);
      let after = before;
      for (let i = 0; i < 30 && after === before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        after = await clickCount(services, context.store());
      }
      assert.equal(after, before + 1);
      await opened.close();
    });

    it("builds the snippet on the embed builder page, linked from the book page's share card", async () => {
      const bookPage = await browserContext.newPage();
      await bookPage.goto(`${booklink}/book/${slug}`);
      assert.equal(await bookPage.locator('.embed-panel, #embed-code').count(), 0, 'no builder for readers');
      await bookPage.locator('.share').getByRole('link', { name: 'Embed this book on your site' }).click();
      await bookPage.waitForURL(`${booklink}/book/${slug}/embed`);
      assert.equal(await bookPage.locator('h1').textContent(), 'Embed this book on your site');
      // The preview is this service's iframe page, which grows to its content.
      const preview = bookPage.frameLocator('.embed-builder__frame');
      await preview.locator('.bl-btn').first().waitFor();
      const code = bookPage.locator('#embed-code');
      assert.equal(
        await code.inputValue(),
        `<script src="${booklink}/embed.js" data-book="${slug}" async></script>`,
      );
      await bookPage.getByLabel('Partner id (optional)').fill(PARTNER);
      await bookPage.getByLabel('Show the cover').uncheck();
      assert.equal(
        await code.inputValue(),
        `<script src="${booklink}/embed.js" data-book="${slug}" data-partner="${PARTNER}" data-cover="false" async></script>`,
      );
      await bookPage.getByLabel('Iframe').check();
      const iframe = await code.inputValue();
      assert.ok(
        iframe.startsWith(`<iframe src="${booklink}/embed/${slug}?partner=${PARTNER}&amp;cover=0"`),
        iframe,
      );
      await bookPage.getByLabel('Partner id (optional)').fill('"><script>');
      assert.doesNotMatch(await code.inputValue(), /partner=|<script>"/);
      await bookPage.getByRole('button', { name: 'Copy code' }).waitFor();
      // Without the cover, the preview shows the embed without it.
      await preview.locator('.bl-btn').first().waitFor();
      assert.equal(await preview.locator('img.bl-cover').count(), 0);
      await bookPage.close();
    });

    it('sets no cookie', async () => {
      assert.deepEqual(await browserContext.cookies(), []);
    });

    it('follows the reader’s dark colour scheme', async () => {
      const background = () =>
        page.evaluate(() => {
          const box = document.querySelector('.booklink-embed')?.shadowRoot?.querySelector('.bl');
          return box ? getComputedStyle(box).backgroundColor : null;
        });
      await page.emulateMedia({ colorScheme: 'light' });
      const light = await background();
      await page.emulateMedia({ colorScheme: 'dark' });
      const dark = await background();
      assert.equal(light, 'rgb(255, 255, 255)');
      assert.notEqual(dark, light);
    });
  });
}
