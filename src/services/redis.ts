import { Redis } from 'ioredis';
import { CircuitBreaker } from '../catalog/circuit-breaker.js';

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
 * `/readyz` reports Redis as degraded. Callers put commands behind `createRedisBreaker`.
 */
export function createRedis(url: string, options: RedisClientOptions = {}): Redis {
  const client = new Redis(url, {
    keyPrefix: options.keyPrefix ?? 'booklink:',
    commandTimeout: options.commandTimeoutMs ?? 500,
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

/**
 * The circuit breaker in front of Redis. A Redis that accepts connections but stops answering would
 * cost every API call a command timeout: after `threshold` failed commands in a row the circuit opens
 * and callers use their fallback at once (the rate limiter lets requests through, readiness reports
 * Redis as degraded); after `cooldownMs` one trial command goes through (half-open) and its outcome
 * closes or re-opens the circuit.
 */
export function createRedisBreaker(
  options: { threshold?: number; cooldownMs?: number } = {},
): CircuitBreaker {
  return new CircuitBreaker({ threshold: options.threshold ?? 3, cooldownMs: options.cooldownMs ?? 5000 });
}

/** Runs one Redis command through the breaker; refused at once while the circuit is open. */
export async function throughBreaker<T>(breaker: CircuitBreaker, command: () => Promise<T>): Promise<T> {
  if (!breaker.tryAcquire())
    throw new Error('circuit open: Redis failed repeatedly; retrying in a few seconds');
  try {
    const result = await command();
    breaker.success();
    return result;
  } catch (error) {
    breaker.failure();
    throw error;
  }
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
