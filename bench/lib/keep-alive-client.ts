/**
 * The CPU-per-request benchmarks' client (bench/http/book-page-cpu.ts, go-cpu.ts): a fixed number of
 * requests over keep-alive connections, each sending its next as one completes. Its own CPU is not
 * what those benchmarks count (they read the servers' from /proc), so a client in Node serves there;
 * throughput and tails are wrk's (bench/lib/wrk.ts).
 */
import { Agent, request } from 'node:http';

function get(url: string, agent: Agent, headers: Readonly<Record<string, string>>): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers }, (response) => {
      response.on('data', () => {});
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** `count` requests of `url` over `connections` connections; any other status than `status` throws. */
export async function keepAliveRun(
  url: string,
  count: number,
  options: { connections: number; headers: Readonly<Record<string, string>>; status: number },
): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  let left = count;
  const worker = async () => {
    while (left > 0) {
      left--;
      const status = await get(url, agent, options.headers);
      if (status !== options.status) throw new Error(`${url} answered ${status}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.connections }, worker));
  } finally {
    agent.destroy();
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
