/**
 * Renders the book page templates and error pages with a sample model, serves them with the web/
 * assets on loopback, and (with --screenshots) captures phone and desktop PNGs with Debian's Chromium.
 *
 *   npx tsx scripts/render-sample.ts [--out /tmp/booklink-render] [--screenshots] [--serve]
 *
 * --serve keeps the server running so the pages can be opened by hand. PNGs are for looking at,
 * not for committing.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { findStaticAsset, STATIC_PREFIX, staticHeaders } from '../src/http/views/assets.js';
import { renderBookPage } from '../src/http/views/book-page.js';
import { renderErrorPage, renderUnknownIsbnPage } from '../src/http/views/error-page.js';
import { PAGE_CONTENT_SECURITY_POLICY } from '../src/http/views/layout.js';
import type { BookPageModel } from '../src/http/views/models.js';
import { sampleBookPageModel } from '../src/http/views/sample.js';

const args = process.argv.slice(2);
const outDir = args.includes('--out') ? (args[args.indexOf('--out') + 1] ?? '') : '/tmp/booklink-render';

const COVER_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="615" viewBox="0 0 400 615">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1d2b2a"/><stop offset="1" stop-color="#0b1110"/></linearGradient></defs>
<rect width="400" height="615" fill="url(#g)"/><circle cx="200" cy="300" r="120" fill="none" stroke="#c9a24a" stroke-width="3"/>
<path d="M200 205v190M140 300h120" stroke="#c9a24a" stroke-width="2"/>
<text x="200" y="110" fill="#e9e1c8" font-family="serif" font-size="44" text-anchor="middle" letter-spacing="3">FRANKENSTEIN</text>
<text x="200" y="520" fill="#c9a24a" font-family="serif" font-size="26" text-anchor="middle" letter-spacing="4">MARY SHELLEY</text>
<text x="200" y="570" fill="#8a8676" font-family="sans-serif" font-size="14" text-anchor="middle" letter-spacing="2">PENGUIN CLASSICS</text></svg>`;

// The blank 1x1 image some cover providers answer with instead of a 404.
const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

function pages(origin: string): Record<string, string> {
  const base = sampleBookPageModel(origin, `${origin}/sample-cover.svg`);
  const noCover: BookPageModel = {
    ...base,
    book: {
      ...base.book,
      slug: 'no-cover',
      title: 'The Long Way to a Small, Angry Planet',
      subtitle: null,
      authors: ['Becky Chambers'],
      coverUrl: null,
    },
  };
  const broken: BookPageModel = { ...base, book: { ...base.book, coverUrl: `${origin}/missing-cover.jpg` } };
  return {
    '/default': renderBookPage(base),
    '/pick': renderBookPage({ ...base, highlight: 'kobo' }),
    '/compact': renderBookPage({ ...base, template: 'compact' }),
    '/card': renderBookPage({ ...base, template: 'card' }),
    '/nocover': renderBookPage(noCover),
    '/broken': renderBookPage(broken),
    '/tiny': renderBookPage({ ...base, book: { ...base.book, coverUrl: `${origin}/pixel.gif` } }),
    '/error-404': renderUnknownIsbnPage('9780000000002', origin),
    '/error-500': renderErrorPage({ status: 500, baseUrl: origin }),
  };
}

function serve(rendered: () => Record<string, string>) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const page = rendered()[url.pathname];
    if (page) {
      // The sample covers come from this http origin; production covers are https.
      const csp = PAGE_CONTENT_SECURITY_POLICY.replace("img-src 'self'", "img-src 'self' http:");
      return void res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp })
        .end(page);
    }
    if (url.pathname === '/sample-cover.svg')
      return void res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(COVER_SVG);
    if (url.pathname === '/pixel.gif')
      return void res.writeHead(200, { 'content-type': 'image/gif' }).end(PIXEL_GIF);
    if (url.pathname === '/api/v1/cover-fallback') {
      // The broken-cover page gets a replacement; the book without a cover stays on its placeholder.
      const found = url.searchParams.get('slug') !== 'no-cover';
      const body = JSON.stringify({
        cover_url: found ? `http://${req.headers.host}/sample-cover.svg` : null,
      });
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    }
    const asset =
      url.pathname.startsWith(STATIC_PREFIX) && findStaticAsset(url.pathname.slice(STATIC_PREFIX.length));
    if (asset)
      return void res
        .writeHead(200, staticHeaders(asset, url.searchParams.get('v') ?? undefined))
        .end(asset.body);
    res.writeHead(404).end('not found');
  };
}

async function screenshots(origin: string, names: string[]): Promise<void> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    for (const [label, width, scheme] of [
      ['phone', 390, 'light'],
      ['desktop', 1280, 'light'],
      ['phone-dark', 390, 'dark'],
      ['desktop-dark', 1280, 'dark'],
    ] as const) {
      const page = await browser.newPage({ viewport: { width, height: 900 }, colorScheme: scheme });
      for (const name of names) {
        await page.goto(`${origin}${name}`, { waitUntil: 'networkidle' });
        await page.screenshot({ path: join(outDir, `${name.slice(1)}-${label}.png`), fullPage: true });
      }
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  let origin = '';
  const server = createServer(serve(() => pages(origin)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const rendered = pages(origin);
  for (const [name, body] of Object.entries(rendered))
    writeFileSync(join(outDir, `${name.slice(1)}.html`), body);
  console.log(`rendered ${Object.keys(rendered).length} pages into ${outDir}; serving on ${origin}`);
  if (args.includes('--screenshots')) await screenshots(origin, Object.keys(rendered));
  if (!args.includes('--serve')) server.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
