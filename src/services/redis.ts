import { Redis } from 'ioredis';

export type { Redis } from 'ioredis';

export interface RedisClientOptions {
  /** Prepended to every key (also inside Lua scripts), so several deployments or test runs can share one Redis. */
  keyPrefix?: string;
  /** Upper bound on one command; a Redis that stopped answering must not hang requests. */
  commandTimeoutMs?: number;
  /** Told about connection errors, once per outage rather than once per reconnect attempt. */
  onError?: (error: Error) => void;
}

const warnOnConsole = (error: Error) => console.warn(`redis: ${error.message}`);

/**
 * The shared Redis client (rate-limit counters, caches) for `REDIS_URL`. Tuned to fail fast rather
 * than queue forever: a command waits at most `commandTimeoutMs`, and queued commands give up after
 * one reconnection attempt, so callers can fall back (the rate limiter lets requests through) while
 * `/readyz` reports Redis as failed.
 */
export function createRedis(url: string, options: RedisClientOptions = {}): Redis {
  const client = new Redis(url, {
    keyPrefix: options.keyPrefix ?? 'booklink:',
    commandTimeout: options.commandTimeoutMs ?? 1000,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // Reconnect forever, backing off to 2 s: Redis coming back must heal the service without a restart.
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event;
  // with one, an outage would log every 2 s. Report the first error of each outage only.
  const onError = options.onError ?? warnOnConsole;
  let reported = false;
  client.on('ready', () => {
    reported = false;
  });
  client.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    onError(error);
  });
  return client;
}

/** Closes politely when connected, at once otherwise (quit would wait for a connection that never comes). */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    await client.quit().catch(() => client.disconnect());
    return;
  }
  client.disconnect();
}

/** Answers whether Redis is reachable within `timeoutMs`; for tests and start-up checks. */
export async function redisReachable(url: string, timeoutMs = 1500): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // The outcome is the answer; the error event itself carries nothing more.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
