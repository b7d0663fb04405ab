/**
 * `/go/{slug}/{destination}` throughput with every click recorded, against a bare node:http server
 * answering the same 302, in one run: `npx tsx bench/http/go.ts [--duration 10] [--connections 10] [--rounds 2]`.
 * `--partner <id>` registers a partner with its own Amazon tag and sends `?partner=<id>&src=bench`.
 * Goal (issue 2): at least a fifth of the bare server's requests per second.
 *
 * Load comes from wrk (bench/lib/wrk.ts, its own process), counting every answer by status. wrk stops on
 * time, not on a count: after a graceful shutdown the clicks table must hold a row for every 302 wrk
 * received, warm-up included, plus at most one a connection per run that was answered as wrk stopped.
 */

import '../lib/help.js';
import { addBenchPartner, bookDatabase, countClicks, createBook } from '../lib/fixtures.js';
import { BROWSER_UA, machineFacts, mean, option, startApp, startBare, withTempDir } from '../lib/harness.js';
import { BROWSER_HTML_HEADERS, type WrkRun, wrk, wrkSummary } from '../lib/wrk.js';

const connections = option('connections', 10);
const duration = option('duration', 10);
const rounds = option('rounds', 2);
const warmup = option('warmup', 3);
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
  let runs = 0;
  let stopped = false;
  /** A wrk run whose every answer must be a 302. */
  const load = async (side: string, url: string, seconds: number): Promise<WrkRun> => {
    const run = await wrk(url, {
      connections,
      duration: seconds,
      headers: BROWSER_HTML_HEADERS,
      countStatuses: true,
      timeout: 5,
    });
    const found = run.statuses['302'] ?? 0;
    if (found !== run.requests || run.socketErrors > 0) {
      throw new Error(
        `${side}: ${run.requests - found} answers were not 302, ${run.socketErrors} socket errors`,
      );
    }
    return run;
  };
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
      const warmApp = await load('app', goUrl, warmup);
      redirects += warmApp.requests;
      runs += 1;
      await load('bare', bare.url, warmup);
      const rates = { app: [] as number[], bare: [] as number[] };
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? (['bare', 'app'] as const) : (['app', 'bare'] as const);
        for (const side of order) {
          const run = await load(side, side === 'app' ? goUrl : bare.url, duration);
          if (side === 'app') {
            redirects += run.requests;
            runs += 1;
          }
          rates[side].push(run.rate);
          const label = side === 'app' ? 'booklink /go/ (click recorded)' : 'bare node:http 302';
          console.log(wrkSummary(`round ${round + 1} ${label}`, run));
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
    // Answered (and recorded) as wrk stopped, never read by wrk: at most one a connection per run.
    const unread = clicks - redirects;
    const ok = unread >= 0 && unread <= connections * runs;
    console.log(
      `graceful shutdown: exit ${code}; ${redirects.toLocaleString('en-US')} redirects received, ` +
        `${clicks.toLocaleString('en-US')} clicks in the table (${unread} answered as wrk stopped): ` +
        `${ok ? 'ALL RECORDED' : 'MISMATCH'}`,
    );
    if (code !== 0 || !ok) process.exitCode = 1;
  } finally {
    if (!stopped) await app.stop();
  }
});
