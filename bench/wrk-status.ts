/**
 * wrk in its own process for the click benches (never sharing the server's event loop), with bench/wrk-status.lua counting
 * responses by status: wrk alone reports 3xx only as "Non-2xx".
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { BROWSER_UA, ROOT } from './harness.js';

export interface WrkResult {
  requests: number;
  seconds: number;
  /** Connect, read, write and timeout errors (a killed server shows up here). */
  errors: number;
  p50_ms: number;
  p99_ms: number;
  statuses: Record<string, number>;
  rate: number;
}

export interface WrkSettings {
  connections: number;
  seconds: number;
  threads?: number;
}

export async function wrk(url: string, settings: WrkSettings): Promise<WrkResult> {
  const args = [
    `-t${settings.threads ?? Math.min(2, settings.connections)}`,
    `-c${settings.connections}`,
    `-d${settings.seconds}s`,
    '--timeout',
    '5s',
    '-H',
    `User-Agent: ${BROWSER_UA}`,
    '-H',
    'Accept: text/html',
    '-s',
    join(ROOT, 'bench', 'wrk-status.lua'),
    url,
  ];
  const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  const line = /^wrk-result (.*)$/m.exec(output)?.[1];
  if (code !== 0 || !line) throw new Error(`wrk exited with ${code}:\n${output}`);
  const parsed = JSON.parse(line) as Omit<WrkResult, 'rate'>;
  return { ...parsed, rate: parsed.requests / parsed.seconds };
}

export function wrkSummary(label: string, result: WrkResult): string {
  const statuses = Object.entries(result.statuses)
    .map(([status, count]) => `${status} ×${count}`)
    .join(', ');
  return (
    `${label.padEnd(34)} ${Math.round(result.rate).toLocaleString('en-US').padStart(7)} req/s  ` +
    `latency p50 ${result.p50_ms.toFixed(2)} ms, p99 ${result.p99_ms.toFixed(2)} ms  ` +
    `(${result.requests.toLocaleString('en-US')} in ${result.seconds.toFixed(2)} s: ${statuses || 'none'}; errors ${result.errors})`
  );
}
