/**
 * `/book/{slug}` throughput of the real server against a bare node:http server answering the very same
 * bytes, in one run: `npx tsx bench/book-page.ts [--duration 10] [--warmup 3] [--connections 10] [--rounds 2]`.
 * Goal (issue 2): the real server serves at least half the bare server's requests per second.
 * Each round measures bare then app, then app then bare, so a drift in machine load hits both sides.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bookDatabase, createBook } from './fixtures.js';
import {
  BROWSER_UA,
  load,
  machineFacts,
  mean,
  option,
  startApp,
  startBare,
  summary,
  withTempDir,
} from './harness.js';

const connections = option('connections', 10);
const duration = option('duration', 10);
const warmup = option('warmup', 3);
const rounds = option('rounds', 2);

await withTempDir(async (dir) => {
  const databaseUrl = await bookDatabase(dir);
  const app = await startApp(databaseUrl);
  try {
    const slug = await createBook(app.url);
    const pageUrl = `${app.url}/book/${slug}`;
    const page = await fetch(pageUrl, { headers: { 'user-agent': BROWSER_UA } });
    if (page.status !== 200) throw new Error(`${pageUrl} answered ${page.status}`);
    const body = Buffer.from(await page.arrayBuffer());
    const file = join(dir, 'page.html');
    writeFileSync(file, body);
    const bare = await startBare('page', file);
    try {
      console.log(machineFacts());
      console.log(
        `page: /book/${slug}, ${body.length.toLocaleString('en-US')} bytes; ${connections} connections`,
      );
      await load(bare.url, { connections, duration: warmup });
      await load(pageUrl, { connections, duration: warmup });
      const appRates: number[] = [];
      const bareRates: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? (['bare', 'app'] as const) : (['app', 'bare'] as const);
        for (const side of order) {
          const run = await load(side === 'app' ? pageUrl : bare.url, { connections, duration });
          if (run.result.non2xx > 0 || run.result.errors > 0) throw new Error(`${side}: failed responses`);
          (side === 'app' ? appRates : bareRates).push(run.rate);
          console.log(
            summary(`round ${round + 1} ${side === 'app' ? 'booklink /book/{slug}' : 'bare node:http'}`, run),
          );
        }
      }
      const ratio = mean(appRates) / mean(bareRates);
      console.log(
        `booklink ${Math.round(mean(appRates))} req/s vs bare ${Math.round(mean(bareRates))} req/s: ` +
          `${(ratio * 100).toFixed(0)} % (goal ≥ 50 %) ${ratio >= 0.5 ? 'MET' : 'MISSED'}`,
      );
      console.log(machineFacts());
    } finally {
      await bare.stop();
    }
  } finally {
    const code = await app.stop();
    if (code !== 0) process.exitCode = 1;
  }
});
