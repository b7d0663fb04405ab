/**
 * Load from wrk (Debian's package, /usr/bin/wrk) in its own process, so the load generator never competes
 * with the server's event loop inside one Node process. Every run prints wrk's own numbers parsed into
 * requests per second and latency percentiles, and the machine's load average around it.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';

export const WRK = process.env.WRK ?? '/usr/bin/wrk';

export interface WrkSettings {
  connections: number;
  /** Seconds. */
  duration: number;
  threads?: number;
  headers?: Record<string, string>;
  /** Paths requested in turn (a query mix); without them every request asks for the URL's path. */
  paths?: readonly string[];
  /** Where the Lua script for `paths` is written. */
  scriptDir?: string;
}

export interface WrkRun {
  rate: number;
  requests: number;
  seconds: number;
  latencyMs: { p50: number; p90: number; p99: number };
  non2xx: number;
  socketErrors: number;
  /** 1-minute load average before and after the run. */
  load: [number, number];
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const toMs = (value: string, unit: string) => Number(value) * (UNIT_MS[unit] ?? Number.NaN);

/** A Lua script cycling through the paths, one per request, per connection thread. */
function mixScript(paths: readonly string[], dir: string): string {
  const file = join(dir, `mix-${process.pid}-${Date.now()}.lua`);
  const list = paths.map((path) => JSON.stringify(path)).join(',\n  ');
  writeFileSync(
    file,
    `local paths = {\n  ${list}\n}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format(nil, paths[i])\nend\n`,
  );
  return file;
}

export function parseWrk(output: string): Omit<WrkRun, 'load'> {
  const rate = /Requests\/sec:\s+([\d.]+)/.exec(output);
  const total = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(output);
  if (!rate || !total) throw new Error(`wrk printed no summary:\n${output}`);
  const percentile = (p: string) => {
    const match = new RegExp(`^\\s+${p}%\\s+([\\d.]+)(us|ms|s|m)`, 'm').exec(output);
    return match ? toMs(match[1] ?? '', match[2] ?? '') : Number.NaN;
  };
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  return {
    rate: Number(rate[1]),
    requests: Number(total[1]),
    seconds: toMs(total[2] ?? '', total[3] ?? '') / 1000,
    latencyMs: { p50: percentile('50'), p90: percentile('90'), p99: percentile('99') },
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: errors ? errors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
  };
}

export async function wrk(url: string, settings: WrkSettings): Promise<WrkRun> {
  const args = [
    `-t${settings.threads ?? 2}`,
    `-c${settings.connections}`,
    `-d${settings.duration}s`,
    '--latency',
  ];
  for (const [name, value] of Object.entries(settings.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (settings.paths && settings.paths.length > 0) {
    args.push('-s', mixScript(settings.paths, settings.scriptDir ?? '/tmp'));
  }
  args.push(url);
  const before = loadavg()[0] ?? 0;
  const child = spawn(WRK, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`wrk exited with ${code}:\n${output}`);
  return { ...parseWrk(output), load: [before, loadavg()[0] ?? 0] };
}

export function wrkSummary(label: string, run: WrkRun): string {
  return (
    `${label.padEnd(34)} ${Math.round(run.rate).toLocaleString('en-US').padStart(7)} req/s  ` +
    `p50 ${run.latencyMs.p50.toFixed(2)} ms, p90 ${run.latencyMs.p90.toFixed(2)} ms, p99 ${run.latencyMs.p99.toFixed(2)} ms  ` +
    `(${run.requests.toLocaleString('en-US')} requests, non-2xx/3xx ${run.non2xx}, socket errors ${run.socketErrors}, ` +
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
