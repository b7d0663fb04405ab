import type { Redis } from 'ioredis';
import type { BookRecord } from '../../catalog/types.js';

/** Provider answers by normalised request, so a repeated query does not ask the providers again. */
export interface AnswerCache {
  get(key: string): Promise<BookRecord[] | undefined>;
  set(key: string, records: BookRecord[]): Promise<void>;
}

/** In-process LRU with a time to live: a Map keeps insertion order, the oldest goes first. */
export class MemoryAnswerCache implements AnswerCache {
  private readonly entries = new Map<string, { records: BookRecord[]; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 2000,
  ) {}

  async get(key: string): Promise<BookRecord[] | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expires <= Date.now()) return undefined;
    this.entries.set(key, entry);
    return entry.records;
  }

  async set(key: string, records: BookRecord[]): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { records, expires: Date.now() + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

/**
 * The in-process cache in front of Redis (shared by every process of an install). Redis errors
 * only cost the shared copy: search never fails because of the cache.
 */
export class RedisAnswerCache implements AnswerCache {
  constructor(
    private readonly redis: Redis,
    private readonly memory: MemoryAnswerCache,
    private readonly ttlMs: number,
    private readonly prefix = 'booklink:search:providers:',
  ) {}

  async get(key: string): Promise<BookRecord[] | undefined> {
    const local = await this.memory.get(key);
    if (local) return local;
    try {
      const text = await this.redis.get(this.prefix + key);
      if (!text) return undefined;
      const records = JSON.parse(text) as BookRecord[];
      await this.memory.set(key, records);
      return records;
    } catch {
      return undefined;
    }
  }

  async set(key: string, records: BookRecord[]): Promise<void> {
    await this.memory.set(key, records);
    try {
      await this.redis.set(this.prefix + key, JSON.stringify(records), 'PX', this.ttlMs);
    } catch {
      // The shared copy is an optimisation.
    }
  }
}
