import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';

/**
 * A Redis that accepts connections, completes ioredis's handshake (HELLO as RESP3, CLIENT SETINFO, the
 * INFO ready check) and then never answers another command: the TCP connection stays open and every
 * command waits forever, as with a Redis stopped by SIGSTOP or a stuck proxy.
 */
export interface HungRedis {
  url: string;
  /** Commands received and left unanswered. */
  unanswered(): number;
  close(): Promise<void>;
}

const INFO = 'redis_version:7.0.0\r\nloading:0\r\n';

/** Splits RESP arrays of bulk strings into commands (enough for what a client sends). */
function commands(text: string): string[][] {
  const lines = text.split('\r\n');
  const parsed: string[][] = [];
  for (let at = 0; at < lines.length; ) {
    const header = lines[at] ?? '';
    if (!header.startsWith('*')) {
      at += 1;
      continue;
    }
    const count = Number(header.slice(1));
    const parts: string[] = [];
    for (let part = 0; part < count; part++) parts.push(lines[at + 2 + part * 2] ?? '');
    parsed.push(parts);
    at += 1 + count * 2;
  }
  return parsed;
}

export async function startHungRedis(): Promise<HungRedis> {
  let unanswered = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      for (const [name = ''] of commands(chunk.toString())) {
        const command = name.toLowerCase();
        if (command === 'hello') socket.write('%1\r\n$5\r\nproto\r\n:3\r\n');
        else if (command === 'client') socket.write('+OK\r\n');
        else if (command === 'info') socket.write(`$${INFO.length}\r\n${INFO}\r\n`);
        else unanswered += 1;
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `redis://127.0.0.1:${address.port}`,
    unanswered: () => unanswered,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
