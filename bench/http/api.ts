/**
 * `/api/v1/resolve` and `/api/v1/search` throughput with the rate limits raised (every request still
 * counted, none refused), side by side in one run with two yardsticks (bench/lib/api-reference-servers.ts):
 *   bare     node:http answering the very JSON bodies the real server sent (the ceiling)
 *   minimal  Fastify calling the same services on the same database, with the same request logs but
 *            without schemas, rate limiter, key lookup, metrics, usage records, guards and error hooks
 * The gap between the real server and `minimal` is the overhead of the API platform (goal: under 15 %).
 *
 *   npx tsx bench/http/api.ts [--duration 10] [--warmup 3] [--connections 10] [--rounds 3] [--catalog 300]
 *
 * Each round measures the three servers in a rotated order, so a drift in machine load hits all of
 * them; the figures reported are the medians over the rounds.
 */
import '../lib/help.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { importCatalogSample, startReference } from '../lib/api-support.js';
import { bookDatabase, createBook } from '../lib/fixtures.js';
import { BROWSER_UA, machineFacts, option, startApp, withTempDir } from '../lib/harness.js';
import { type WrkRun, wrk, wrkSummary } from '../lib/wrk.js';

const connections = option('connections', 10);
const duration = option('duration', 10);
const warmup = option('warmup', 3);
const rounds = option('rounds', 3);
const catalogRows = option('catalog', 300);

// The ceiling config.ts accepts: 60 s × a few thousand req/s stays far below it.
const RAISED_LIMIT = '1000000';
const AMAZON_URL = 'https://www.amazon.com/dp/0141439513';
const SEARCH_TITLE = 'Pride and Prejudice';
const HEADERS = { 'user-agent': BROWSER_UA, accept: 'application/json' };

const ROUTES = {
  resolve: `/api/v1/resolve?${new URLSearchParams({ url: AMAZON_URL, source: 'app-bench' })}`,
  search: `/api/v1/search?${new URLSearchParams({ q: SEARCH_TITLE, limit: '5' })}`,
} as const;
type Route = keyof typeof ROUTES;
/** `--only resolve` or `--only search` (a profile of one route); both by default. */
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const measured = (Object.keys(ROUTES) as Route[]).filter((route) => !only || route === only);
if (measured.length === 0) throw new Error('--only takes resolve or search');
const SIDES = ['bare', 'booklink', 'minimal'] as const;
type Side = (typeof SIDES)[number];

interface Sample {
  rate: number;
  /** CPU time the server process spent per request (user + system): steadier than req/s on a busy host. */
  cpuUs: number;
  p50: number;
  p99: number;
  load1: number;
}

// /proc/<pid>/stat counts in clock ticks of 10 ms (CLK_TCK 100 on Linux).
const TICK_US = 10_000;

/** User + system CPU ticks of a process so far (Linux). */
function cpuTicks(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** A wrk run (bench/lib/wrk.ts) whose every answer must be a 200. */
async function measure(url: string, seconds: number): Promise<WrkRun> {
  const run = await wrk(url, { connections, duration: seconds, headers: HEADERS, countStatuses: true });
  const ok = run.statuses['200'] ?? 0;
  if (ok !== run.requests || run.socketErrors > 0) {
    throw new Error(`${url}: ${run.requests - ok} answers not 200, ${run.socketErrors} socket errors`);
  }
  return run;
}

async function body(url: string): Promise<Buffer> {
  const response = await fetch(url, { headers: HEADERS });
  const bytes = Buffer.from(await response.arrayBuffer());
  const parsed = JSON.parse(bytes.toString('utf8')) as { status?: string };
  if (response.status !== 200 || parsed.status !== 'found') {
    throw new Error(`${url} answered ${response.status} ${bytes.toString('utf8').slice(0, 200)}`);
  }
  return bytes;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

function report(samples: Map<string, Sample[]>): void {
  const pick = (route: Route, side: Side, field: keyof Sample) =>
    median((samples.get(`${route} ${side}`) ?? []).map((sample) => sample[field]));
  console.log(`\nmedians over ${rounds} rounds (${connections} connections, ${duration} s each):`);
  console.log('| route | server | req/s | p50 ms | p99 ms | server CPU µs/request | load (1 min) |');
  console.log('|---|---|---|---|---|---|---|');
  for (const route of measured) {
    for (const side of SIDES) {
      const cells = [pick(route, side, 'rate'), pick(route, side, 'p50'), pick(route, side, 'p99')];
      const [rate = 0, p50 = 0, p99 = 0] = cells;
      const load1 = pick(route, side, 'load1').toFixed(2);
      const cpu = pick(route, side, 'cpuUs').toFixed(0);
      console.log(
        `| ${route} | ${side} | ${Math.round(rate)} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${cpu} | ${load1} |`,
      );
    }
  }
  for (const route of measured) {
    const real = pick(route, 'booklink', 'rate');
    const minimal = pick(route, 'minimal', 'rate');
    const bare = pick(route, 'bare', 'rate');
    const overhead = (1 - real / minimal) * 100;
    const cpuReal = pick(route, 'booklink', 'cpuUs');
    const cpuMinimal = pick(route, 'minimal', 'cpuUs');
    const cpuOverhead = (cpuReal / cpuMinimal - 1) * 100;
    console.log(
      `${route}: platform overhead ${overhead.toFixed(1)} % of minimal Fastify's req/s, ` +
        `CPU per request +${(cpuReal - cpuMinimal).toFixed(0)} µs (+${cpuOverhead.toFixed(1)} %); ` +
        `goal < 15 %: ${Math.max(overhead, cpuOverhead) < 15 ? 'MET' : 'MISSED'}; ` +
        `booklink at ${((real / bare) * 100).toFixed(0)} % of bare node:http`,
    );
  }
}

await withTempDir(async (dir) => {
  const databaseUrl = await bookDatabase(dir);
  const imported = await importCatalogSample(databaseUrl, dir, catalogRows);
  const limits = { RATE_LIMIT_ANON: RAISED_LIMIT, RATE_LIMIT_KEYED: RAISED_LIMIT };
  const app = await startApp(databaseUrl, limits);
  const stops: Array<() => Promise<number | null>> = [];
  try {
    await createBook(app.url);
    const files = { search: join(dir, 'search.json'), resolve: join(dir, 'resolve.json') };
    const bodies = {
      search: await body(app.url + ROUTES.search),
      resolve: await body(app.url + ROUTES.resolve),
    };
    writeFileSync(files.search, bodies.search);
    writeFileSync(files.resolve, bodies.resolve);
    const bare = await startReference(['bare', files.search, files.resolve]);
    stops.push(bare.stop);
    // The app's BASE_URL, so that the minimal server's links (and bodies) are the real server's.
    const minimal = await startReference(['fastify'], {
      DATABASE_URL: databaseUrl,
      BASE_URL: app.url,
      ...limits,
    });
    stops.push(minimal.stop);
    const base: Record<Side, string> = { bare: bare.url, booklink: app.url, minimal: minimal.url };
    const pids: Record<Side, number | undefined> = {
      bare: bare.child.pid,
      booklink: app.child.pid,
      minimal: minimal.child.pid,
    };
    for (const route of Object.keys(ROUTES) as Route[]) {
      const same = await body(minimal.url + ROUTES[route]);
      if (!isDeepStrictEqual(JSON.parse(same.toString()), JSON.parse(bodies[route].toString()))) {
        throw new Error(`minimal ${route} answers a different body: ${same.toString()}`);
      }
    }
    console.log(machineFacts());
    console.log(`pids: booklink ${app.child.pid}, minimal ${minimal.child.pid} (profile file names)`);
    console.log(
      `catalog: ${imported} goodbooks rows + the bench book; ${connections} connections, ${duration} s per run\n` +
        `resolve ${ROUTES.resolve} (${bodies.resolve.length} bytes)\n` +
        `search  ${ROUTES.search} (${bodies.search.length} bytes)`,
    );
    for (const route of measured) {
      for (const side of SIDES) await measure(base[side] + ROUTES[route], warmup);
    }
    const samples = new Map<string, Sample[]>();
    for (let round = 0; round < rounds; round++) {
      const order = [...SIDES.slice(round % 3), ...SIDES.slice(0, round % 3)];
      for (const route of measured) {
        for (const side of order) {
          const ticks = cpuTicks(pids[side]);
          const run = await measure(base[side] + ROUTES[route], duration);
          const cpu = (cpuTicks(pids[side]) - ticks) * TICK_US;
          const sample = {
            rate: run.rate,
            cpuUs: cpu / Math.max(1, run.requests),
            p50: run.latencyMs.p50,
            p99: run.latencyMs.p99,
            load1: loadavg()[0] ?? 0,
          };
          samples.set(`${route} ${side}`, [...(samples.get(`${route} ${side}`) ?? []), sample]);
          console.log(
            wrkSummary(`round ${round + 1} ${route} ${side}`, run),
            `cpu ${sample.cpuUs.toFixed(0)} µs/req, load ${sample.load1.toFixed(2)}`,
          );
        }
      }
    }
    report(samples);
    console.log(machineFacts());
  } finally {
    // A yardstick that cannot shut down cleanly fails the run, as the app does.
    for (const stop of stops) if ((await stop()) !== 0) process.exitCode = 1;
    const code = await app.stop();
    if (code !== 0) process.exitCode = 1;
  }
});
