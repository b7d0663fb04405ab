import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LocalRateStore } from '../../src/services/local-rate-store.js';

function incr(
  store: LocalRateStore,
  key: string,
  windowMs = 60_000,
): Promise<{ current: number; ttl: number }> {
  return new Promise((resolve, reject) =>
    store.incr(key, (error, result) => (error ? reject(error) : resolve(result)), windowMs),
  );
}

describe('LocalRateStore', () => {
  it('answers each caller with the count its own increment made, even when read later', async () => {
    const store = new LocalRateStore();
    const results: Array<{ current: number }> = [];
    for (let i = 0; i < 3; i++) store.incr('ip:a', (_error, result) => results.push(result), 60_000);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      results.map((result) => result.current),
      [1, 2, 3],
    );
  });

  it('keeps separate counters per key and starts a new window when one ends', async () => {
    const store = new LocalRateStore();
    assert.equal((await incr(store, 'key:1', 30)).current, 1);
    assert.equal((await incr(store, 'key:1', 30)).current, 2);
    assert.equal((await incr(store, 'key:2', 30)).current, 1);
    await new Promise((resolve) => setTimeout(resolve, 40));
    const fresh = await incr(store, 'key:1', 30);
    assert.equal(fresh.current, 1);
    assert.ok(fresh.ttl > 0 && fresh.ttl <= 30);
  });

  it('reads without counting', async () => {
    const store = new LocalRateStore();
    await incr(store, 'ip:b');
    const read = await new Promise<{ current: number }>((resolve) =>
      store.read('ip:b', (_e, r) => resolve(r)),
    );
    assert.equal(read.current, 1);
    assert.equal((await incr(store, 'ip:b')).current, 2);
    assert.equal(store.child(), store, 'every route shares one budget');
  });
});
