/**
 * The one load generator of the HTTP benchmarks: wrk (Debian's package, /usr/bin/wrk; `WRK=` names
 * another) in its own process, so it never competes with the server's event loop inside one Node
 * process. wrk runs with `--latency` and a Lua script written for the run whose `done()` prints one JSON
 * line: requests, seconds, the latency percentiles p50, p90, p99 and p99.9 (wrk's own text prints no
 * p99.9), socket errors and the non-2xx/3xx count. With `countStatuses` the script also counts every
 * response by HTTP status (wrk alone reports a 302 only as "not 2xx"; the click benchmarks need the
 * exact number of 302s received); the `response()` hook that takes costs wrk some of its own speed, so
 * the throughput benchmarks leave it off. With `paths` the script cycles through a query mix. Every run
 * records the machine's 1-minute load average before and after it.
 */
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BROWSER_UA } from './harness.js';

export const WRK = process.env.WRK ?? '/usr/bin/wrk';

/** What a browser asking for a page sends: the click and page benchmarks' default headers. */
export const BROWSER_HTML_HEADERS: Readonly<Record<string, string>> = {
  'User-Agent': BROWSER_UA,
  Accept: 'text/html',
};

export interface WrkSettings {
  connections: number;
  /** Seconds. */
  duration: number;
  /** Default: 2, or one per connection below that. */
  threads?: number;
  headers?: Readonly<Record<string, string>>;
  /** Paths requested in turn (a query mix); without them every request asks for the URL's path. */
  paths?: readonly string[];
  /** Count responses by status (`statuses`); costs wrk a little throughput. */
  countStatuses?: boolean;
  /** wrk's `--timeout` in seconds (wrk's default: 2). */
  timeout?: number;
  /** Where the run's Lua script is written (default: the system's temporary directory). */
  scriptDir?: string;
}

export interface WrkRun {
  /** Requests per second over the run. */
  rate: number;
  requests: number;
  seconds: number;
  latencyMs: { p50: number; p90: number; p99: number; p999: number };
  /** Responses wrk counts as failed: status 400 or above. */
  non2xx: number;
  /** Connect, read, write and timeout errors (a killed server shows up here). */
  socketErrors: number;
  /** Responses by HTTP status; empty unless `countStatuses` was set. */
  statuses: Record<string, number>;
  /** 1-minute load average before and after the run. */
  load: [number, number];
}

const MIX = (paths: readonly string[]) =>
  `local paths = {\n  ${paths.map((path) => JSON.stringify(path)).join(',\n  ')}\n}\nlocal i = 0\n` +
  'request = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n';

const COUNT_STATUSES = `function init(args)
  statuses = {}
end

function response(status, headers, body)
  statuses[status] = (statuses[status] or 0) + 1
end
`;

// setup() runs once per thread in the main Lua state, so done() can read each thread's counts.
const DONE = `local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, count in pairs(thread:get("statuses") or {}) do
      total[status] = (total[status] or 0) + count
    end
  end
  local parts = {}
  for status, count in pairs(total) do
    table.insert(parts, string.format('"%d":%d', status, count))
  end
  local errors = summary.errors
  io.write(string.format(
    'wrk-result {"requests":%d,"seconds":%.6f,"socketErrors":%d,"non2xx":%d,' ..
    '"p50":%.3f,"p90":%.3f,"p99":%.3f,"p999":%.3f,"statuses":{%s}}\\n',
    summary.requests, summary.duration / 1e6,
    errors.connect + errors.read + errors.write + errors.timeout, errors.status,
    latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency:percentile(99.9) / 1000,
    table.concat(parts, ",")))
end
`;

interface LuaResult {
  requests: number;
  seconds: number;
  socketErrors: number;
  non2xx: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  statuses: Record<string, number>;
}

/** The JSON line the run's `done()` printed, as a run (without the load average). */
export function parseWrk(output: string): Omit<WrkRun, 'load'> {
  const line = /^wrk-result (.*)$/m.exec(output)?.[1];
  if (!line) throw new Error(`wrk printed no result:\n${output}`);
  const parsed = JSON.parse(line) as LuaResult;
  return {
    rate: parsed.seconds > 0 ? parsed.requests / parsed.seconds : 0,
    requests: parsed.requests,
    seconds: parsed.seconds,
    latencyMs: { p50: parsed.p50, p90: parsed.p90, p99: parsed.p99, p999: parsed.p999 },
    non2xx: parsed.non2xx,
    socketErrors: parsed.socketErrors,
    statuses: parsed.statuses,
  };
}

function script(settings: WrkSettings): string {
  const file = join(settings.scriptDir ?? tmpdir(), `booklink-wrk-${process.pid}-${Date.now()}.lua`);
  const mix = settings.paths && settings.paths.length > 0 ? MIX(settings.paths) : '';
  writeFileSync(file, `${mix}${settings.countStatuses ? COUNT_STATUSES : ''}${DONE}`);
  return file;
}

export async function wrk(url: string, settings: WrkSettings): Promise<WrkRun> {
  const args = [
    `-t${settings.threads ?? Math.min(2, settings.connections)}`,
    `-c${settings.connections}`,
    `-d${settings.duration}s`,
    '--latency',
  ];
  if (settings.timeout) args.push('--timeout', `${settings.timeout}s`);
  for (const [name, value] of Object.entries(settings.headers ?? {})) args.push('-H', `${name}: ${value}`);
  const lua = script(settings);
  args.push('-s', lua, url);
  const before = loadavg()[0] ?? 0;
  const child = spawn(WRK, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  }).finally(() => rmSync(lua, { force: true }));
  if (code !== 0) throw new Error(`wrk exited with ${code}:\n${output}`);
  return { ...parseWrk(output), load: [before, loadavg()[0] ?? 0] };
}

export function wrkSummary(label: string, run: WrkRun): string {
  const statuses = Object.entries(run.statuses)
    .map(([status, count]) => `${status} ×${count}`)
    .join(', ');
  const { p50, p90, p99, p999 } = run.latencyMs;
  return (
    `${label.padEnd(34)} ${Math.round(run.rate).toLocaleString('en-US').padStart(7)} req/s  ` +
    `p50 ${p50.toFixed(2)} ms, p90 ${p90.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, p99.9 ${p999.toFixed(2)} ms  ` +
    `(${run.requests.toLocaleString('en-US')} requests in ${run.seconds.toFixed(2)} s` +
    `${statuses ? `: ${statuses}` : ''}; status ≥ 400 ${run.non2xx}, socket errors ${run.socketErrors}, ` +
    `load ${run.load[0].toFixed(2)} → ${run.load[1].toFixed(2)})`
  );
}

/** The response exactly as sent (fetch would decompress it): status, headers and raw body bytes. */
export function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}
