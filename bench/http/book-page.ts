/**
 * `/book/{slug}` throughput of the real server against a bare node:http server answering the very same
 * body (same size, same encoding), and against one that also sends the real server's headers (CSP,
 * CORS, Vary, cache: a sixth of bare's rate on their own), all loaded by wrk from its own process in the same run:
 * `npx tsx bench/http/book-page.ts [--duration 10] [--connections 50] [--rounds 2] [--identity]`.
 * By default the requests accept brotli, as browsers do, and the bare server sends the same brotli bytes;
 * `--identity` measures uncompressed pages on both sides. Goal (issue 14): at least half of bare.
 * Each round measures the three in turn, the order rotating, so a drift in machine load hits every side.
 */
import '../lib/help.js';
import { withBookPageServers } from '../lib/fixtures.js';
import { BROWSER_UA, cpuSecondsOf, flag, machineFacts, mean, option } from '../lib/harness.js';
import { wrk, wrkSummary } from '../lib/wrk.js';

const connections = option('connections', 50);
const duration = option('duration', 10);
const warmup = option('warmup', 2);
const rounds = option('rounds', 2);
const headers: Record<string, string> = {
  'user-agent': BROWSER_UA,
  accept: 'text/html',
  ...(flag('identity') ? {} : { 'accept-encoding': 'gzip, deflate, br' }),
};

type Side = 'bare' | 'headers' | 'app';
const ORDER: readonly Side[] = ['bare', 'headers', 'app'];
const LABEL: Record<Side, string> = {
  bare: 'bare node:http',
  headers: 'bare + same headers',
  app: 'booklink /book/{slug}',
};

await withBookPageServers(headers, async (servers) => {
  const { slug, pageUrl, bytes, encoding } = servers;
  const target: Record<Side, { server: typeof servers.app; url: string }> = {
    bare: { server: servers.bare, url: servers.bareUrl },
    headers: { server: servers.bareWithHeaders, url: servers.bareWithHeadersUrl },
    app: { server: servers.app, url: pageUrl },
  };
  console.log(machineFacts());
  console.log(
    `page: /book/${slug}, ${bytes.toLocaleString('en-US')} bytes sent (${encoding || 'identity'}); ` +
      `wrk ${connections} connections, ${duration} s per run`,
  );
  for (const side of ORDER) await wrk(target[side].url, { connections, duration: warmup, headers });
  const rates: Record<Side, number[]> = { bare: [], headers: [], app: [] };
  for (let round = 0; round < rounds; round++) {
    const order = [...ORDER.slice(round % 3), ...ORDER.slice(0, round % 3)];
    for (const side of order) {
      const { server, url } = target[side];
      const cpuBefore = cpuSecondsOf(server);
      const run = await wrk(url, { connections, duration, headers });
      if (run.non2xx > 0) throw new Error(`${side}: ${run.non2xx} failed responses`);
      rates[side].push(run.rate);
      // Below 100 %, the server waited for something other than its own CPU (wrk, the machine's load).
      const busy = (cpuSecondsOf(server) - cpuBefore) / run.seconds;
      console.log(
        `${wrkSummary(`round ${round + 1} ${LABEL[side]}`, run)}, server CPU ${(busy * 100).toFixed(0)} %`,
      );
    }
  }
  const app = mean(rates.app);
  for (const side of ['bare', 'headers'] as const) {
    const ratio = app / mean(rates[side]);
    console.log(
      `booklink ${Math.round(app)} req/s vs ${LABEL[side]} ${Math.round(mean(rates[side]))} req/s: ` +
        `${(ratio * 100).toFixed(0)} % (goal ≥ 50 %) ${ratio >= 0.5 ? 'MET' : 'MISSED'}`,
    );
  }
  console.log(machineFacts());
});
