import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HUMAN_UA } from './app.js';

/** `booklink serve` in a child process, so a test can kill it (SIGKILL, SIGTERM) and start it again. */
export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** `nodeFlags`: V8 and Node flags for the server's process (`--max-old-space-size=256`). */
export async function startServerProcess(
  env: Record<string, string>,
  nodeFlags: readonly string[] = [],
): Promise<ServerProcess> {
  const args = [...nodeFlags, '--import', 'tsx', join(ROOT, 'src/cli.ts'), 'serve'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      BASE_URL: 'http://booklink.test',
      PROVIDERS: 'local',
      LOG_LEVEL: 'info',
      // These servers take click bursts from one address to test durability, not the per-address cap.
      WRITE_LIMIT_CLICKS: '1000000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exit = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const address = /Booklink listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      if (address) resolve(address);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exit.then(() => reject(new Error(`server exited before listening:\n${output}`)));
    setTimeout(() => reject(new Error(`server did not listen within 90 s:\n${output}`)), 90_000).unref();
  });
  const baseUrl = await listening;
  return {
    baseUrl,
    child,
    exit,
    output: () => output,
    get: (path, headers = {}) =>
      fetch(`${baseUrl}${path}`, { redirect: 'manual', headers: { 'user-agent': HUMAN_UA, ...headers } }),
  };
}
