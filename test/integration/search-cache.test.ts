import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { emptyRecord } from '../../src/catalog/types.js';
import { closeRedis, createRedis, type Redis, redisReachable } from '../../src/services/redis.js';
import { MemoryAnswerCache, RedisAnswerCache } from '../../src/services/search/cache.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('provider answer cache', () => {
  it('forgets the oldest question beyond its size and expired answers', async () => {
    const cache = new MemoryAnswerCache(60_000, 2);
    await cache.set('a', [emptyRecord('test', 'A')]);
    await cache.set('b', [emptyRecord('test', 'B')]);
    await cache.get('a');
    await cache.set('c', [emptyRecord('test', 'C')]);
    assert.equal((await cache.get('b')) ?? null, null, 'least recently used goes first');
    assert.equal((await cache.get('a'))?.[0]?.title, 'A');
    const short = new MemoryAnswerCache(1);
    await short.set('a', []);
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(await short.get('a'), undefined);
  });

  describe('shared through Redis', async () => {
    const reachable = await redisReachable(REDIS_URL);
    let one: Redis;
    let two: Redis;
    const prefix = `test:search-cache:${randomBytes(4).toString('hex')}:`;
    before(() => {
      if (!reachable) return;
      one = createRedis(REDIS_URL);
      two = createRedis(REDIS_URL);
    });
    after(async () => {
      if (!reachable) return;
      const keys = await one.keys(`${prefix}*`);
      if (keys.length > 0) await one.del(...keys);
      await closeRedis(one);
      await closeRedis(two);
    });

    it('answers one process from what another cached', {
      skip: !reachable && `Redis not reachable at ${REDIS_URL}`,
    }, async () => {
      const first = new RedisAnswerCache(one, new MemoryAnswerCache(60_000), 60_000, prefix);
      const second = new RedisAnswerCache(two, new MemoryAnswerCache(60_000), 60_000, prefix);
      await first.set('dune|||10', [{ ...emptyRecord('openlibrary', 'Dune'), isbn13: '9780441172719' }]);
      const shared = await second.get('dune|||10');
      assert.equal(shared?.[0]?.title, 'Dune');
      assert.equal(shared?.[0]?.isbn13, '9780441172719');
      assert.equal(await second.get('other|||10'), undefined);
      assert.ok((await one.pttl(`${prefix}dune|||10`)) > 0, 'stored with a time to live');
    });
  });
});
