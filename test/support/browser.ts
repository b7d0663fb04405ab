import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Route } from 'playwright-core';

/**
 * Playwright on Debian's own Chromium (never a downloaded browser). Without `/usr/bin/chromium` the
 * browser tests skip with a loud warning; with BOOKLINK_REQUIRE_BROWSER=1 (set by .ci/run) they fail.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const REQUIRE_BROWSER = process.env.BOOKLINK_REQUIRE_BROWSER === '1';
export const ARTIFACTS_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

/** Chromium's own "HeadlessChrome" agent is a bot to isbot, and bots cannot create books. */
export const DESKTOP = {
  viewport: { width: 1280, height: 900 },
  userAgent:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
} as const;

export const PHONE = {
  viewport: { width: 390, height: 844 },
  userAgent:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
} as const;

/**
 * Whether the browser tests can run. A missing Chromium is a loud skip locally and an error in CI,
 * so a green CI run always means the browser tests ran.
 */
export function browserAvailable(suite: string): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  const message = `${CHROMIUM_PATH} is missing: SKIPPING the browser tests of "${suite}" (apt-get install -y chromium)`;
  if (REQUIRE_BROWSER) throw new Error(`BOOKLINK_REQUIRE_BROWSER=1 but ${message}`);
  console.warn(`\n!!! ${message}\n`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost']);

export interface OutboundLog {
  /** Every navigation that tried to leave the machine, in order. */
  navigations: string[];
}

/** A stand-in cover, so screenshots show the layout with a real image in place. */
function coverSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600" viewBox="0 0 400 600">
<rect width="400" height="600" fill="#7a2e2e"/><rect x="24" y="24" width="352" height="552" fill="none" stroke="#f3e6c8" stroke-width="4"/>
<text x="200" y="260" font-family="serif" font-size="40" fill="#f3e6c8" text-anchor="middle">Test cover</text></svg>`;
}

/**
 * Nothing leaves the machine: outbound navigations (a click reaching a store) are answered by a stub
 * page and logged, images get a stand-in cover, anything else is aborted.
 */
export async function blockOutbound(context: BrowserContext): Promise<OutboundLog> {
  const log: OutboundLog = { navigations: [] };
  const handle = async (route: Route) => {
    const request = route.request();
    if (request.isNavigationRequest()) {
      log.navigations.push(request.url());
      await route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<!doctype html><title>destination stub</title><p>destination stub</p>',
      });
    } else if (request.resourceType() === 'image') {
      await route.fulfill({ status: 200, contentType: 'image/svg+xml', body: coverSvg() });
    } else {
      await route.abort('blockedbyclient');
    }
  };
  // The app itself (127.0.0.1) is not routed: a routed request's redirect would escape the handler.
  await context.route((url) => !LOCAL_HOSTS.has(url.hostname), handle);
  return log;
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return join(ARTIFACTS_DIR, name);
}
