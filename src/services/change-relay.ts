import { randomUUID } from 'node:crypto';
import { type Change, type ChangeEvents, parseChange } from './change-events.js';
import type { Redis } from './redis.js';

export interface ChangeRelay {
  /** Resolves once this instance listens (tests wait for it before editing on another instance). */
  ready: Promise<void>;
  close(): Promise<void>;
}

interface RelayMessage {
  origin: string;
  change: unknown;
}

/**
 * Relays cache-invalidating changes between instances through Redis pub/sub. Publishing uses the
 * shared client; listening needs a connection of its own (a subscribed connection runs no other
 * command). A change reaches the other instances within milliseconds. While Redis is unreachable,
 * changes cannot travel: when the subscription comes back, this instance drops every cache, since it
 * may have missed some, so staleness never outlives an outage (the caches' own TTLs bound it meanwhile).
 */
export function relayChanges(events: ChangeEvents, redis: Redis, channel: string): ChangeRelay {
  const origin = randomUUID();
  const subscriber = redis.duplicate();
  // The shared client's error handler reports outages; this one only keeps them from being unhandled.
  subscriber.on('error', () => undefined);
  let subscribedOnce = false;
  let closed = false;
  const ready = new Promise<void>((resolve) => {
    const subscribe = () => {
      subscriber.subscribe(channel).then(
        () => {
          if (subscribedOnce) events.receiveEverything();
          subscribedOnce = true;
          resolve();
        },
        // A SUBSCRIBE that timed out (a loaded Redis answers after the command timeout) is asked
        // again: without an answer this instance would never be ready, or never hear a change.
        () => {
          if (!closed && subscriber.status === 'ready') setTimeout(subscribe, 200).unref();
        },
      );
    };
    subscriber.on('ready', subscribe);
  });
  subscriber.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    const message = parseMessage(text);
    if (!message || message.origin === origin) return;
    const change = parseChange(message.change);
    if (change) events.receive(change);
  });
  events.setRelay((change) => {
    const message: RelayMessage = { origin, change };
    // A change that cannot be published is still applied here; the others see it when their TTL ends.
    redis.publish(channel, JSON.stringify(message)).catch(() => undefined);
  });
  return {
    ready,
    close: async () => {
      closed = true;
      events.setRelay(null);
      subscriber.disconnect();
    },
  };
}

/** The channel the instances of one install relay changes on (the key prefix names the install). */
export function changesChannel(redis: Redis): string {
  return `${redis.options.keyPrefix ?? ''}changes`;
}

/**
 * Tells every running instance about a change made outside them (a catalog import from the command
 * line). Resolves once Redis took the message; rejects when it cannot be published.
 */
export async function announceChange(redis: Redis, change: Change): Promise<void> {
  const message: RelayMessage = { origin: randomUUID(), change };
  await redis.publish(changesChannel(redis), JSON.stringify(message));
}

function parseMessage(text: string): RelayMessage | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    const { origin, change } = value as Partial<RelayMessage>;
    return typeof origin === 'string' ? { origin, change } : null;
  } catch {
    return null;
  }
}
