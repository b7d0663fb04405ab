/**
 * Server CPU time per `/book/{slug}` request, against the bare node:http server answering the same bytes:
 * `npx tsx bench/http/book-page-cpu.ts [--requests 20000] [--connections 1] [--identity]`.
 * Requests go over real HTTP with keep-alive; the servers' CPU (user + system) is read from
 * /proc/<pid>/stat around the run (Linux), so the client's own work is not counted. Unlike requests per
 * second, CPU per request hardly moves when other jobs load the machine: use it to judge a change, and
 * wrk (bench/http/book-page.ts) on a quiet machine for the throughput goal.
 */
import '../lib/help.js';
import { withBookPageServers } from '../lib/fixtures.js';
import { BROWSER_UA, type ChildServer, cpuSecondsOf, flag, machineFacts, option } from '../lib/harness.js';
import { keepAliveRun, median } from '../lib/keep-alive-client.js';

const requests = option('requests', 20_000);
const connections = option('connections', 1);
const warmup = option('warmup', 3000);
const rounds = option('rounds', 3);
const headers: Record<string, string> = {
  'user-agent': BROWSER_UA,
  accept: 'text/html',
  ...(flag('identity') ? {} : { 'accept-encoding': 'gzip, deflate, br' }),
};

async function measure(label: string, server: ChildServer, url: string): Promise<number> {
  await keepAliveRun(url, warmup, { connections, headers, status: 200 });
  const cpuBefore = cpuSecondsOf(server);
  const started = performance.now();
  await keepAliveRun(url, requests, { connections, headers, status: 200 });
  const seconds = (performance.now() - started) / 1000;
  const perRequest = ((cpuSecondsOf(server) - cpuBefore) / requests) * 1e6;
  console.log(
    `${label.padEnd(24)} ${perRequest.toFixed(0).padStart(5)} µs CPU per request ` +
      `(${requests.toLocaleString('en-US')} requests in ${seconds.toFixed(1)} s, ` +
      `server busy ${(((perRequest * requests) / 1e6 / seconds) * 100).toFixed(0)} % of the time)`,
  );
  return perRequest;
}

await withBookPageServers(headers, async ({ app, bare, slug, pageUrl, bareUrl, bytes, encoding }) => {
  console.log(machineFacts());
  console.log(
    `page: /book/${slug}, ${bytes.toLocaleString('en-US')} bytes sent (${encoding || 'identity'}), ` +
      `${connections} keep-alive connection(s)`,
  );
  const appCpu: number[] = [];
  const bareCpu: number[] = [];
  for (let round = 0; round < rounds; round++) {
    appCpu.push(await measure(`round ${round + 1} booklink`, app, pageUrl));
    bareCpu.push(await measure(`round ${round + 1} bare node:http`, bare, bareUrl));
  }
  const [appMedian, bareMedian] = [median(appCpu), median(bareCpu)];
  console.log(
    `median CPU per request: booklink ${appMedian.toFixed(0)} µs, bare ${bareMedian.toFixed(0)} µs ` +
      `(${(appMedian / bareMedian).toFixed(1)} × bare)`,
  );
  console.log(machineFacts());
});
