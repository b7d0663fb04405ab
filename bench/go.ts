/**
 * `/go/{slug}/{destination}` throughput with every click recorded, against a bare node:http server
 * answering the same 302, in one run: `npx tsx bench/go.ts [--duration 10] [--connections 10] [--rounds 2]`.
 * `--partner <id>` registers a partner with its own Amazon tag and sends `?partner=<id>&src=bench`.
 * Goal (issue 2): at least a fifth of the bare server's requests per second.
 *
 * Runs are a fixed number of requests (sized from the warm-up to last about `--duration` seconds), so
 * autocannon waits for every answer: after a graceful shutdown the clicks table must hold exactly one row
 * per 302 the app sent, warm-up included.
 */

import { addBenchPartner, bookDatabase, countClicks, createBook } from './fixtures.js';
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
const rounds = option('rounds', 2);
const warmupRequests = option('warmup', 5000);
const destination = process.argv.includes('--destination')
  ? (process.argv[process.argv.indexOf('--destination') + 1] ?? 'amazon')
  : 'amazon';
const partner = process.argv.includes('--partner')
  ? (process.argv[process.argv.indexOf('--partner') + 1] ?? 'bench-partner')
  : null;

await withTempDir(async (dir) => {
  const databaseUrl = await bookDatabase(dir);
  if (partner) await addBenchPartner(databaseUrl, partner);
  const app = await startApp(databaseUrl, { AFFILIATE_TAGS: 'amazon=booklinkbench-20' });
  let redirects = 0;
  let stopped = false;
  try {
    const slug = await createBook(app.url);
    const query = partner ? `?partner=${encodeURIComponent(partner)}&src=bench` : '';
    const goUrl = `${app.url}/go/${slug}/${destination}${query}`;
    const first = await fetch(goUrl, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
    const location = first.headers.get('location');
    if (first.status !== 302 || !location) throw new Error(`${goUrl} answered ${first.status}`);
    redirects += 1;
    const bare = await startBare('redirect', location);
    try {
      console.log(machineFacts());
      console.log(`/go/${slug}/${destination} → ${location}; ${connections} connections`);
      const warmApp = await load(goUrl, { connections, amount: warmupRequests });
      redirects += warmApp.result['3xx'];
      const warmBare = await load(bare.url, { connections, amount: warmupRequests });
      const amounts = {
        app: Math.round(warmApp.rate * duration),
        bare: Math.round(warmBare.rate * duration),
      };
      const rates = { app: [] as number[], bare: [] as number[] };
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? (['bare', 'app'] as const) : (['app', 'bare'] as const);
        for (const side of order) {
          const run = await load(side === 'app' ? goUrl : bare.url, {
            connections,
            amount: amounts[side],
          });
          const { result } = run;
          if (result['3xx'] !== result.requests.total || result.errors > 0) {
            throw new Error(`${side}: ${result.requests.total - result['3xx']} answers were not 302`);
          }
          if (side === 'app') redirects += result['3xx'];
          rates[side].push(run.rate);
          const label = side === 'app' ? 'booklink /go/ (click recorded)' : 'bare node:http 302';
          console.log(summary(`round ${round + 1} ${label}`, run));
        }
      }
      const ratio = mean(rates.app) / mean(rates.bare);
      console.log(
        `booklink ${Math.round(mean(rates.app))} req/s vs bare ${Math.round(mean(rates.bare))} req/s: ` +
          `${(ratio * 100).toFixed(0)} % (goal ≥ 20 %) ${ratio >= 0.2 ? 'MET' : 'MISSED'}`,
      );
      console.log(machineFacts());
    } finally {
      await bare.stop();
    }
    const code = await app.stop();
    stopped = true;
    const clicks = await countClicks(databaseUrl);
    console.log(
      `graceful shutdown: exit ${code}; ${redirects.toLocaleString('en-US')} redirects sent, ` +
        `${clicks.toLocaleString('en-US')} clicks in the table: ${clicks === redirects ? 'ALL RECORDED' : 'MISMATCH'}`,
    );
    if (code !== 0 || clicks !== redirects) process.exitCode = 1;
  } finally {
    if (!stopped) await app.stop();
  }
});
