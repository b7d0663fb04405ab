/**
 * Server CPU per `/api/v1/search` request on the bench/search/api.ts query mix, robust on a loaded machine
 * (CPU time, not throughput): `npx tsx bench/search/cpu.ts [--mix invented|search-dev] [--entries 5000] [--rounds 4]
 * [--concurrency 4]` (the mixes: bench/lib/search-mix.ts).
 * The server runs as `booklink serve` in its own process (PROVIDERS=local); this process sends the mix
 * over keep-alive HTTP and reads the server's user + system time from /proc before and after. Two servers:
 * one with the search result cache off (`SEARCH_CACHE_MS=0`: every request is a full search, a cache
 * miss), one with it on after a first pass (every request a cache hit). Each measurement waits out a
 * flush of the search log so its write is counted.
 */
import '../lib/help.js';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { BROWSER_UA, machineFacts, option, startApp, textOption, withTempDir } from '../lib/harness.js';
import { searchMix } from '../lib/search-mix.js';

const entries = option('entries', 5000);
const rounds = option('rounds', 4);
const concurrency = option('concurrency', 4);
const TICKS_PER_SECOND = 100;

/** User + system CPU of a process in microseconds (from /proc, all threads). */
function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat(5), counted from the state (field 3) here.
  return ((Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND) * 1e6;
}

const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
const headers = { 'user-agent': BROWSER_UA, accept: 'application/json' };

function get(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** Every path once, `concurrency` requests in flight; throws on any answer but 200. */
async function pass(base: string, paths: readonly string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++] ?? '';
      const { status, body } = await get(`${base}${path}`);
      if (status !== 200) throw new Error(`${path} answered ${status}: ${body}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** `booklink_search_cache_*_total` counters from /metrics (absent before the cache existed). */
async function cacheCounters(base: string): Promise<{ hits: number; misses: number } | null> {
  const { body } = await get(`${base}/metrics`);
  const hits = /^booklink_search_cache_hits_total (\d+)/m.exec(body);
  const misses = /^booklink_search_cache_misses_total (\d+)/m.exec(body);
  return hits && misses ? { hits: Number(hits[1]), misses: Number(misses[1]) } : null;
}

await withTempDir(async (dir) => {
  const mix = textOption('mix', 'invented');
  const { url: databaseUrl, paths } = await searchMix(mix, dir, entries);
  console.log(machineFacts());
  console.log(
    `${mix === 'invented' ? `${entries.toLocaleString('en-US')} invented catalog entries` : 'goodbooks-10k and the search-dev queries'}, ` +
      `${paths.length} queries × ${rounds} rounds, ${concurrency} in flight`,
  );
  for (const mode of ['miss', 'hit'] as const) {
    const app = await startApp(databaseUrl, {
      RATE_LIMIT_ANON: '1000000',
      SEARCH_CACHE_MS: mode === 'miss' ? '0' : '600000',
    });
    try {
      const pid = app.child.pid;
      if (pid === undefined) throw new Error('no server process');
      // Warm-up: JIT, statement caches, and (hit mode) the result cache.
      await pass(app.url, paths);
      await pass(app.url, paths);
      await delay(1500);
      const counted = await cacheCounters(app.url);
      const before = cpuMicros(pid);
      const started = performance.now();
      for (let round = 0; round < rounds; round++) await pass(app.url, paths);
      const seconds = (performance.now() - started) / 1000;
      // The search log is written by a timer: wait for its flush so the write is counted too.
      await delay(1500);
      const used = cpuMicros(pid) - before;
      const requests = rounds * paths.length;
      const after = await cacheCounters(app.url);
      const cache =
        counted && after
          ? `, cache hits ${after.hits - counted.hits} / misses ${after.misses - counted.misses}`
          : ', no cache counters';
      console.log(
        `${mode === 'miss' ? 'cache off (every request a miss)' : 'cache on, warmed (hits)'}: ` +
          `${Math.round(used / requests)} µs CPU per request (${requests} requests, ` +
          `${(used / 1e6).toFixed(2)} s CPU in ${seconds.toFixed(2)} s${cache})`,
      );
    } finally {
      const code = await app.stop();
      if (code !== 0) process.exitCode = 1;
    }
  }
  console.log(machineFacts());
});
