/**
 * Server CPU time per `/go/{slug}/{destination}` request, every click recorded: a plain click (answered
 * by the click replay, src/http/go-replay.ts), the same click with a cookie (`bench=1`, which nothing
 * reads: it goes through Fastify as every click did before the replay) and a bare node:http 302, in
 * interleaved rounds: `npx tsx bench/http/go-cpu.ts [--requests 20000] [--connections 1] [--rounds 3] [--bot]`.
 * `--bot` sends a crawler's User-Agent (no click stored). The servers' CPU (user + system) is read from
 * /proc/<pid>/stat around each run (Linux), as bench/http/book-page-cpu.ts does.
 */
import '../lib/help.js';
import { bookDatabase, createBook } from '../lib/fixtures.js';
import {
  BROWSER_UA,
  type ChildServer,
  cpuSecondsOf,
  flag,
  machineFacts,
  option,
  startApp,
  startBare,
  withTempDir,
} from '../lib/harness.js';
import { keepAliveRun, median } from '../lib/keep-alive-client.js';

const requests = option('requests', 20_000);
const connections = option('connections', 1);
const warmup = option('warmup', 3000);
const rounds = option('rounds', 3);
const BOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const plain: Record<string, string> = {
  'user-agent': flag('bot') ? BOT_UA : BROWSER_UA,
  accept: 'text/html',
  'accept-language': 'en-US,en;q=0.9',
};

async function measure(
  label: string,
  server: ChildServer,
  url: string,
  headers: Record<string, string>,
): Promise<number> {
  await keepAliveRun(url, warmup, { connections, headers, status: 302 });
  const cpuBefore = cpuSecondsOf(server);
  const started = performance.now();
  await keepAliveRun(url, requests, { connections, headers, status: 302 });
  const seconds = (performance.now() - started) / 1000;
  const perRequest = ((cpuSecondsOf(server) - cpuBefore) / requests) * 1e6;
  console.log(
    `${label.padEnd(34)} ${perRequest.toFixed(1).padStart(6)} µs CPU per request ` +
      `(${requests.toLocaleString('en-US')} requests in ${seconds.toFixed(1)} s)`,
  );
  return perRequest;
}

await withTempDir(async (dir) => {
  const app = await startApp(await bookDatabase(dir), { AFFILIATE_TAGS: 'amazon=booklinkbench-20' });
  try {
    const slug = await createBook(app.url);
    const goUrl = `${app.url}/go/${slug}/amazon`;
    const first = await fetch(goUrl, { redirect: 'manual', headers: plain });
    const location = first.headers.get('location');
    if (first.status !== 302 || !location) throw new Error(`${goUrl} answered ${first.status}`);
    const bare = await startBare('redirect', location);
    try {
      console.log(machineFacts());
      console.log(
        `/go/${slug}/amazon → ${location}; ${connections} keep-alive connection(s), ${plain['user-agent']}`,
      );
      const sides = [
        { name: 'replayed', server: app, url: goUrl, headers: plain },
        {
          name: 'through Fastify (cookie)',
          server: app,
          url: goUrl,
          headers: { ...plain, cookie: 'bench=1' },
        },
        { name: 'bare node:http 302', server: bare, url: bare.url, headers: plain },
      ];
      const cpu = new Map<string, number[]>(sides.map((side) => [side.name, []]));
      for (let round = 0; round < rounds; round++) {
        // Each round in another order, so a drift of the machine's load does not favour one side.
        const order = round % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) {
          const value = await measure(`round ${round + 1} ${side.name}`, side.server, side.url, side.headers);
          cpu.get(side.name)?.push(value);
        }
      }
      const summary = sides.map((side) => {
        const values = cpu.get(side.name) ?? [];
        return `${side.name} ${median(values).toFixed(1)} µs (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`;
      });
      console.log(`median CPU per request: ${summary.join('; ')}`);
      console.log(machineFacts());
    } finally {
      await bare.stop();
    }
  } finally {
    await app.stop();
  }
});
