/**
 * `/book/{slug}` throughput of the real server against a bare node:http server answering the very same
 * bytes (same size, same encoding), both loaded by wrk from its own process in the same run:
 * `npx tsx bench/book-page.ts [--duration 10] [--connections 50] [--rounds 2] [--identity]`.
 * By default the requests accept brotli, as browsers do, and the bare server sends the same brotli bytes;
 * `--identity` measures uncompressed pages on both sides. Goal (issue 14): at least half of bare.
 * Each round measures bare then app, then app then bare, so a drift in machine load hits both sides.
 */
import { withBookPageServers } from './fixtures.js';
import { BROWSER_UA, cpuSecondsOf, flag, machineFacts, mean, option } from './harness.js';
import { wrk, wrkSummary } from './wrk.js';

const connections = option('connections', 50);
const duration = option('duration', 10);
const warmup = option('warmup', 2);
const rounds = option('rounds', 2);
const headers: Record<string, string> = {
  'user-agent': BROWSER_UA,
  accept: 'text/html',
  ...(flag('identity') ? {} : { 'accept-encoding': 'gzip, deflate, br' }),
};

await withBookPageServers(headers, async ({ app, bare, slug, pageUrl, bareUrl, bytes, encoding }) => {
  console.log(machineFacts());
  console.log(
    `page: /book/${slug}, ${bytes.toLocaleString('en-US')} bytes sent (${encoding || 'identity'}); ` +
      `wrk ${connections} connections, ${duration} s per run`,
  );
  await wrk(bare.url, { connections, duration: warmup, headers });
  await wrk(pageUrl, { connections, duration: warmup, headers });
  const appRates: number[] = [];
  const bareRates: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? (['bare', 'app'] as const) : (['app', 'bare'] as const);
    for (const side of order) {
      const server = side === 'app' ? app : bare;
      const cpuBefore = cpuSecondsOf(server);
      const run = await wrk(side === 'app' ? pageUrl : bareUrl, {
        connections,
        duration,
        headers,
      });
      if (run.non2xx > 0) throw new Error(`${side}: ${run.non2xx} failed responses`);
      (side === 'app' ? appRates : bareRates).push(run.rate);
      // Below 100 %, the server waited for something other than its own CPU (wrk, the machine's load).
      const busy = (cpuSecondsOf(server) - cpuBefore) / run.seconds;
      console.log(
        `${wrkSummary(
          `round ${round + 1} ${side === 'app' ? 'booklink /book/{slug}' : 'bare node:http'}`,
          run,
        )}, server CPU ${(busy * 100).toFixed(0)} %`,
      );
    }
  }
  const ratio = mean(appRates) / mean(bareRates);
  console.log(
    `booklink ${Math.round(mean(appRates))} req/s vs bare ${Math.round(mean(bareRates))} req/s: ` +
      `${(ratio * 100).toFixed(0)} % (goal ≥ 50 %) ${ratio >= 0.5 ? 'MET' : 'MISSED'}`,
  );
  console.log(machineFacts());
});
