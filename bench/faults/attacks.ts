/**
 * Issue 43's attacks on a real `node dist/cli.js serve` with a 256 MB heap, measured as its "done when"
 * states them: while connections pipeline hundreds of requests they never read, and while 2,000
 * request bodies stall, how long `/healthz` and a book page take (the slowest answer of a probe every
 * 100 ms); how long until every stalled body's connection is closed; and how long SIGTERM takes to
 * end a process that holds stalled bodies.
 *
 *   npm run build && npx tsx bench/faults/attacks.ts [--stalled 2000] [--rounds 10]
 */
import '../lib/help.js';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { stalled: { type: 'string', default: '2000' }, rounds: { type: 'string', default: '10' } },
});
const STALLED = Number(values.stalled);
const ROUNDS = Number(values.rounds);
const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';
const ISBN = '9780141439518';

interface Server {
  child: ChildProcess;
  base: string;
  port: number;
  exited: Promise<unknown>;
}

async function start(dir: string, env: Record<string, string>): Promise<Server> {
  const child = spawn(process.execPath, ['--max-old-space-size=256', 'dist/cli.js', 'serve'], {
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
      PROVIDERS: 'local',
      RATE_LIMIT_ANON: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = once(child, 'exit');
  const base = await new Promise<string>((resolve, reject) => {
    // Read until the listening line; the request lines after it are let through unread.
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /Booklink listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (!found) return;
      child.stdout?.off('data', read).resume();
      child.stderr?.off('data', read).resume();
      resolve(found);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    void exited.then(() => reject(new Error(output)));
  });
  return { child, base, port: Number(new URL(base).port), exited };
}

async function openRaw(port: number, text: string): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  socket.write(text);
  return socket;
}

/** Probes `/healthz` and the book page every 100 ms until stopped; the slowest answer of each, in ms. */
function probe(base: string, bookPath: string) {
  let stopped = false;
  const slowest = { healthz: 0, book: 0, failures: 0 };
  const loop = (async () => {
    while (!stopped) {
      for (const [name, path] of [
        ['healthz', '/healthz'],
        ['book', bookPath],
      ] as const) {
        const started = performance.now();
        try {
          const response = await fetch(`${base}${path}`, {
            headers: { 'user-agent': UA },
            signal: AbortSignal.timeout(10_000),
          });
          await response.arrayBuffer();
          if (response.status !== 200) slowest.failures++;
        } catch {
          slowest.failures++;
        }
        slowest[name] = Math.max(slowest[name], performance.now() - started);
      }
      await delay(100);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return slowest;
    },
  };
}

const stalledBody = `POST /api/v1/lists HTTP/1.1\r\nHost: x\r\nUser-Agent: ${UA}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'booklink-attacks-'));
  writeFileSync(join(dir, 'books.csv'), `isbn13,title,authors\n${ISBN},Pride and Prejudice,Jane Austen\n`);
  const imported = spawn(process.execPath, ['dist/cli.js', 'import', join(dir, 'books.csv')], {
    env: { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'bench.db')}` },
    stdio: 'ignore',
  });
  await once(imported, 'exit');
  console.log(
    `load average before: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  try {
    let server = await start(dir, {});
    const created = await fetch(`${server.base}/isbn/${ISBN}`, {
      redirect: 'manual',
      headers: { 'user-agent': UA },
    });
    const bookPath = created.headers.get('location') ?? '/healthz';

    // 1. Pipelining: two connections a round, 400 × /openapi.json each, never read.
    let probing = probe(server.base, bookPath);
    const pipelined = 'GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(400);
    for (let round = 0; round < ROUNDS; round++) {
      const sockets = await Promise.all([openRaw(server.port, pipelined), openRaw(server.port, pipelined)]);
      for (const socket of sockets) socket.pause();
      await delay(1000);
      for (const socket of sockets) socket.destroy();
    }
    let slowest = await probing.stop();
    console.log(
      `pipelining, ${ROUNDS} rounds × 2 connections × 400 requests unread: slowest /healthz ${slowest.healthz.toFixed(1)} ms, book page ${slowest.book.toFixed(1)} ms, failed probes ${slowest.failures}, alive: ${server.child.exitCode === null}`,
    );

    // 2. Stalled bodies: STALLED connections announce 100 bytes and send one.
    probing = probe(server.base, bookPath);
    const started = performance.now();
    const sockets = await Promise.all(
      Array.from({ length: STALLED }, () => openRaw(server.port, stalledBody)),
    );
    const closedAt = await Promise.all(
      sockets.map(
        (socket) =>
          new Promise<number>((resolve) => {
            socket.resume();
            socket.once('close', () => resolve(performance.now() - started));
          }),
      ),
    );
    slowest = await probing.stop();
    console.log(
      `${STALLED} stalled bodies: all closed after ${(Math.max(...closedAt) / 1000).toFixed(1)} s (first ${(Math.min(...closedAt) / 1000).toFixed(1)} s); slowest /healthz ${slowest.healthz.toFixed(1)} ms, book page ${slowest.book.toFixed(1)} ms, failed probes ${slowest.failures}`,
    );
    server.child.kill('SIGTERM');
    await server.exited;

    // 3. SIGTERM while 200 bodies stall (default grace, default request timeout).
    server = await start(dir, {});
    const held = await Promise.all(Array.from({ length: 200 }, () => openRaw(server.port, stalledBody)));
    await delay(500);
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    await server.exited;
    console.log(
      `SIGTERM with 200 stalled bodies: exited after ${((performance.now() - signalled) / 1000).toFixed(1)} s`,
    );
    for (const socket of held) socket.destroy();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `load average after: ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
  }
}

await main();
