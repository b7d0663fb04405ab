import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real `booklink serve` processes on fixed loopback ports (so a restarted instance comes back where the
 * proxy expects it) and a real nginx in front of them, for the multi-instance tests.
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The first port the kernel hands out to outgoing connections (ip_local_port_range), or Linux's default. */
function ephemeralFloor(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(low) > 2000 ? Number(low) : 32768;
  } catch {
    return 32768;
  }
}

/** Whether a server could listen on `port` just now. */
async function canListen(port: number): Promise<boolean> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  const outcome = await Promise.race([
    once(server, 'listening').then(() => true),
    once(server, 'error').then(() => false),
  ]);
  if (outcome) {
    server.close();
    await once(server, 'close');
  }
  return outcome;
}

/**
 * A port that was free a moment ago, below the kernel's ephemeral range: a port of that range (what
 * listening on port 0 gives) is also what every outgoing connection of the suite takes as its own
 * end, PostgreSQL's and Redis's included, and one did take an instance's port between this check and
 * the instance's listen (EADDRINUSE).
 */
export async function freePort(): Promise<number> {
  const floor = Math.max(ephemeralFloor(), 11_000);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 10_000 + Math.floor(Math.random() * (floor - 10_000));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port between 10000 and ${floor}`);
}

export interface Instance {
  port: number;
  baseUrl: string;
  /** Starts (or restarts) the process and resolves once it listens. */
  start(): Promise<void>;
  /** SIGTERM, then waits for the exit (in-flight requests finish, buffers flush). */
  stop(): Promise<number | null>;
  output(): string;
}

export function serverInstance(env: Record<string, string>, port: number): Instance {
  let child: ChildProcess | null = null;
  let log = '';
  return {
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => log,
    async start() {
      const started = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli.ts'), 'serve'], {
        cwd: ROOT,
        env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child = started;
      const exited = once(started, 'exit');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`instance ${port} did not listen:\n${log}`)), 60_000);
        const onData = (chunk: Buffer) => {
          log += chunk.toString();
          if (log.includes(`Booklink listening on http://127.0.0.1:${port}`)) {
            clearTimeout(timer);
            resolve();
          }
        };
        started.stdout?.on('data', onData);
        started.stderr?.on('data', onData);
        void exited.then(() => {
          clearTimeout(timer);
          reject(new Error(`instance ${port} exited before listening:\n${log}`));
        });
      });
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return running?.exitCode ?? null;
      const exited = once(running, 'exit');
      running.kill('SIGTERM');
      const [code] = await exited;
      return code as number | null;
    },
  };
}

export function nginxAvailable(): boolean {
  return spawnSync('nginx', ['-v']).status === 0;
}

export interface ReverseProxy {
  baseUrl: string;
  /** nginx's error log so far (why an upstream was given up), for failure messages. */
  errorLog(): string;
  close(): Promise<void>;
}

/**
 * nginx on a loopback port, balancing round-robin over the instances. A connection refused (an instance
 * restarting) or a 502/503 (one closing) is retried on the next instance, as a production proxy is set up
 * (docs/deployment.md shows the same directives).
 */
export async function startNginx(ports: readonly number[]): Promise<ReverseProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'booklink-nginx-'));
  const port = await freePort();
  const servers = ports.map((upstream) => `    server 127.0.0.1:${upstream} max_fails=0;`).join('\n');
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
daemon off;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream booklink {
${servers}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://booklink;
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 2s;
    }
  }
}
`,
  );
  const child = spawn('nginx', ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${log}`);
    const up = await fetch(`${baseUrl}/healthz`).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (attempt > 100) throw new Error(`nginx did not answer: ${log}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    errorLog: () => {
      try {
        return readFileSync(join(dir, 'error.log'), 'utf8').slice(-4000);
      } catch {
        return '';
      }
    },
    close: async () => {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
