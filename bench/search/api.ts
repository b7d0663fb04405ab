/**
 * `/api/v1/search` over HTTP on a local-catalog query mix, loaded by wrk from its own process, beside a
 * bare node:http server answering a search response of the same size, measured in the same run:
 * `npx tsx bench/search/api.ts [--mix invented|search-dev] [--entries 5000] [--duration 10] [--connections 20]
 * [--rounds 2] [--database-url postgres://…/empty_db]`. `--database-url` fills that empty database (PostgreSQL too)
 * instead of a SQLite file: create it first and drop it after. The catalog is invented (word lists, deterministic), or with `--mix search-dev` the real
 * goodbooks-10k catalog and search-dev queries (bench/lib/search-mix.ts); PROVIDERS=local, so no provider is asked and
 * every request is the server's own work: validation, rate limit, search, the search log, JSON.
 * The server runs with its defaults, the search result cache included (`SEARCH_CACHE_MS`, 30 s): the mix
 * repeats, so after the warm-up most requests are cache hits; each app run prints how many were (from
 * the server's /metrics). `--no-cache` starts the server with `SEARCH_CACHE_MS=0`: every request a search.
 * Goal (issue 14): at least 1,000 req/s with p99 under 50 ms.
 */
import '../lib/help.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  BROWSER_UA,
  flag,
  machineFacts,
  mean,
  option,
  startApp,
  startBare,
  textOption,
  withTempDir,
} from '../lib/harness.js';
import { searchMix } from '../lib/search-mix.js';
import { rawGet, wrk, wrkSummary } from '../lib/wrk.js';

const entries = option('entries', 5000);
const connections = option('connections', 20);
const duration = option('duration', 10);
const warmup = option('warmup', 2);
const rounds = option('rounds', 2);

await withTempDir(async (dir) => {
  const mix = textOption('mix', 'invented');
  const target = textOption('database-url', '');
  const { url: databaseUrl, paths } = await searchMix(mix, dir, entries, target || undefined);
  // Without a limit the anonymous rate limit would answer most of the load with 429s.
  const app = await startApp(databaseUrl, {
    RATE_LIMIT_ANON: '1000000',
    ...(flag('no-cache') ? { SEARCH_CACHE_MS: '0' } : {}),
  });
  /** Search answers served from the result cache so far (the server's /metrics; 0 without the cache). */
  const cacheHits = async () => {
    const { body } = await rawGet(`${app.url}/metrics`, {});
    return Number(/^booklink_search_cache_hits_total (\d+)/m.exec(body.toString())?.[1] ?? 0);
  };
  try {
    const headers = { 'user-agent': BROWSER_UA, accept: 'application/json' };
    const sample = await rawGet(`${app.url}${paths[0]}`, headers);
    if (sample.status !== 200) throw new Error(`search answered ${sample.status}: ${sample.body}`);
    const file = join(dir, 'search.json');
    writeFileSync(file, sample.body);
    const bare = await startBare('page', file, ['application/json; charset=utf-8']);
    try {
      console.log(machineFacts());
      console.log(
        `${mix === 'invented' ? `${entries.toLocaleString('en-US')} invented catalog entries` : 'goodbooks-10k and the search-dev queries'}, ` +
          `${paths.length} distinct queries in turn, ` +
          `${sample.body.length} bytes per answer; wrk ${connections} connections, ${duration} s per run`,
      );
      await wrk(app.url, { connections, duration: warmup, headers, paths, scriptDir: dir });
      const appRuns = [];
      const hitTotals = { hits: 0, requests: 0 };
      const bareRates: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const order = round % 2 === 0 ? (['bare', 'app'] as const) : (['app', 'bare'] as const);
        for (const side of order) {
          const hitsBefore = side === 'app' ? await cacheHits() : 0;
          const run =
            side === 'app'
              ? await wrk(app.url, { connections, duration, headers, paths, scriptDir: dir })
              : await wrk(`${bare.url}/api/v1/search`, { connections, duration, headers });
          if (run.non2xx > 0) throw new Error(`${side}: ${run.non2xx} failed responses`);
          if (side === 'app') appRuns.push(run);
          else bareRates.push(run.rate);
          console.log(
            wrkSummary(
              `round ${round + 1} ${side === 'app' ? 'booklink /api/v1/search' : 'bare node:http'}`,
              run,
            ),
          );
          if (side === 'app') {
            const hits = (await cacheHits()) - hitsBefore;
            hitTotals.hits += hits;
            hitTotals.requests += run.requests;
            console.log(
              `  cache hits: ${hits.toLocaleString('en-US')} of ${run.requests.toLocaleString('en-US')} requests` +
                ` wrk counted (${((100 * hits) / Math.max(1, run.requests)).toFixed(1)} %)`,
            );
          }
        }
      }
      const rate = mean(appRuns.map((run) => run.rate));
      const p99 = Math.max(...appRuns.map((run) => run.latencyMs.p99));
      console.log(
        `booklink ${Math.round(rate)} req/s (p99 ${p99.toFixed(1)} ms) vs bare ${Math.round(mean(bareRates))} req/s: ` +
          `goal ≥ 1,000 req/s and p99 < 50 ms ${rate >= 1000 && p99 < 50 ? 'MET' : 'MISSED'}; ` +
          `${((100 * hitTotals.hits) / Math.max(1, hitTotals.requests)).toFixed(1)} % of the measured requests were search cache hits`,
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
