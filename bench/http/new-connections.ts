/**
 * Why a saturated server made a reader's new connection wait (issue 48): libuv accepts one connection
 * per turn of the event loop, and one turn runs every request that its open connections have ready.
 * A bare `node:http` server that holds the loop for `--ms` of CPU a request (a search on SQLite is
 * about a millisecond) is measured by wrk at `--connections` new connections, as it answers, and with
 * the same work taking its turns through the service's FairTurns (src/services/fair-turns.ts).
 * `npx tsx bench/http/new-connections.ts [--ms 0.8] [--connections 50] [--duration 10] [--warmup 2]`
 * Each wrk run opens its connections anew, all at once; their first answers make the tail.
 */
import '../lib/help.js';
import { machineFacts, option, startBare } from '../lib/harness.js';
import { type WrkRun, wrk } from '../lib/wrk.js';

const ms = option('ms', 0.8);
const connections = option('connections', 50);
const duration = option('duration', 10);
const warmup = option('warmup', 2);

const fmt = (value: number) => (value >= 10 ? value.toFixed(0) : value.toFixed(1));
const row = (label: string, run: WrkRun) =>
  `| ${label} | ${Math.round(run.rate).toLocaleString('en-US')} | ${fmt(run.latencyMs.p50)} ms | ` +
  `${fmt(run.latencyMs.p90)} ms | ${fmt(run.latencyMs.p99)} ms | ${fmt(run.latencyMs.p999)} ms | ` +
  `${run.load[0].toFixed(2)} → ${run.load[1].toFixed(2)} |`;

console.log(machineFacts());
console.log(
  `${ms} ms of CPU a request, ${connections} connections opened by each wrk run, ${duration} s a run`,
);
console.log('| server | req/s | p50 | p90 | p99 | p99.9 | load |');
console.log('|---|---|---|---|---|---|---|');
for (const turns of [false, true]) {
  const server = await startBare('busy', String(ms), turns ? ['turns'] : []);
  try {
    await wrk(`${server.url}/`, { connections, duration: warmup, threads: 1 });
    const run = await wrk(`${server.url}/`, { connections, duration, threads: 1 });
    console.log(row(turns ? 'work through FairTurns' : 'work in the request', run));
  } finally {
    await server.stop();
  }
}
