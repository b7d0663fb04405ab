/**
 * `/go/{slug}/{destination}` under wrk (its own process), side by side in one run with a bare node:http
 * 302 and with the click journal off (clicks buffered in memory only, the behaviour before issue 11):
 *   npx tsx bench/http/go-journal.ts [--seconds 10] [--connections 10] [--rounds 2]
 * Each app gets its own fresh SQLite database; after a graceful shutdown the clicks table must hold
 * a row for every 302 wrk received (plus the few answered as wrk stopped, at most one per connection).
 * `BENCH_APP_ENV='CLICK_WAL_FSYNC=always'` measures the journal fsynced before every answer.
 */
import '../lib/help.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bookDatabase, countClicks, createBook } from '../lib/fixtures.js';
import { BROWSER_UA, machineFacts, mean, option, startApp, startBare, withTempDir } from '../lib/harness.js';
import { BROWSER_HTML_HEADERS, wrk, wrkSummary } from '../lib/wrk.js';

const connections = option('connections', 10);
const seconds = option('seconds', 10);
const rounds = option('rounds', 2);

/** Extra settings for the journaled app, e.g. BENCH_APP_ENV='CLICK_WAL_FSYNC=always'. */
function appEnv(): Record<string, string> {
  const pairs = (process.env.BENCH_APP_ENV ?? '').split(' ').filter(Boolean);
  return Object.fromEntries(
    pairs.map((pair) => [pair.split('=')[0] ?? '', pair.split('=').slice(1).join('=')]),
  );
}

type Side = 'bare' | 'journal' | 'memory';
const LABELS: Record<Side, string> = {
  bare: 'bare node:http 302',
  journal: 'booklink /go/ (click journal)',
  memory: 'booklink /go/ (CLICK_WAL_DIR=off)',
};

await withTempDir(async (dir) => {
  const databases = { journal: '', memory: '' };
  for (const side of ['journal', 'memory'] as const) {
    mkdirSync(join(dir, side));
    databases[side] = await bookDatabase(join(dir, side));
  }
  const apps = {
    journal: await startApp(databases.journal, appEnv()),
    memory: await startApp(databases.memory, { CLICK_WAL_DIR: 'off' }),
  };
  const redirects = { journal: 0, memory: 0 };
  try {
    const urls: Record<Side, string> = { bare: '', journal: '', memory: '' };
    for (const side of ['journal', 'memory'] as const) {
      const slug = await createBook(apps[side].url);
      urls[side] = `${apps[side].url}/go/${slug}/amazon`;
    }
    const first = await fetch(urls.journal, { redirect: 'manual', headers: { 'user-agent': BROWSER_UA } });
    const location = first.headers.get('location');
    if (first.status !== 302 || !location) throw new Error(`${urls.journal} answered ${first.status}`);
    redirects.journal += 1;
    const bare = await startBare('redirect', location);
    urls.bare = bare.url;
    try {
      console.log(machineFacts());
      console.log(`wrk, ${connections} connections, ${seconds} s per run, ${rounds} rounds`);
      const rates: Record<Side, number[]> = { bare: [], journal: [], memory: [] };
      for (let round = 0; round < rounds; round++) {
        const order: Side[] = round % 2 === 0 ? ['bare', 'journal', 'memory'] : ['memory', 'journal', 'bare'];
        for (const side of order) {
          const result = await wrk(urls[side], {
            connections,
            duration: seconds,
            headers: BROWSER_HTML_HEADERS,
            countStatuses: true,
            timeout: 5,
          });
          const found = result.statuses['302'] ?? 0;
          if (found !== result.requests || result.socketErrors > 0) {
            throw new Error(
              `${side}: ${result.requests - found} answers were not 302, ${result.socketErrors} errors`,
            );
          }
          if (side !== 'bare') redirects[side] += found;
          rates[side].push(result.rate);
          console.log(wrkSummary(`round ${round + 1} ${LABELS[side]}`, result));
        }
      }
      const bareRate = mean(rates.bare);
      for (const side of ['journal', 'memory'] as const) {
        console.log(
          `${LABELS[side]}: ${Math.round(mean(rates[side]))} req/s, ` +
            `${((mean(rates[side]) / bareRate) * 100).toFixed(0)} % of bare (${Math.round(bareRate)} req/s)`,
        );
      }
      console.log(
        `journal vs memory: ${((mean(rates.journal) / mean(rates.memory)) * 100).toFixed(0)} % ` +
          '(goal: /go/ at least as fast as before the journal)',
      );
      console.log(machineFacts());
    } finally {
      await bare.stop();
    }
  } finally {
    for (const side of ['journal', 'memory'] as const) {
      const code = await apps[side].stop();
      const clicks = await countClicks(databases[side]);
      // wrk stops on time, not on a count: up to one request per connection per run was answered (and
      // counted) but never read by wrk.
      const unread = clicks - redirects[side];
      const ok = unread >= 0 && unread <= connections * rounds * 3;
      console.log(
        `${LABELS[side]}: exit ${code}; ${redirects[side]} redirects received, ${clicks} clicks ` +
          `(${unread} answered as wrk stopped): ${ok ? 'ALL RECORDED' : 'MISMATCH'}`,
      );
      if (code !== 0 || !ok) process.exitCode = 1;
    }
  }
});
