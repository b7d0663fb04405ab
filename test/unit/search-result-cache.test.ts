import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SearchResultCache } from '../../src/services/search/results.js';

describe('search result cache', () => {
  it('answers within its time to live and forgets the least recently used beyond its size', () => {
    let now = 0;
    const cache = new SearchResultCache<string>(
      1000,
      2,
      () => now,
      () => 0,
    );
    cache.set('a', 'A', cache.mark());
    cache.set('b', 'B', cache.mark());
    assert.equal(cache.get('a'), 'A');
    cache.set('c', 'C', cache.mark());
    assert.equal(cache.get('b'), undefined, 'least recently used goes first');
    now = 999;
    assert.equal(cache.get('c'), 'C');
    now = 1000;
    assert.equal(cache.get('a'), undefined, 'expired');
    assert.deepEqual(cache.stats(), { hits: 2, misses: 2, entries: 1, clears: 0 });
  });

  it('drops everything on clear and does not keep an answer searched across a clear', () => {
    const cache = new SearchResultCache<string>(60_000);
    cache.set('a', 'A', cache.mark());
    const mark = cache.mark();
    cache.clear();
    assert.equal(cache.get('a'), undefined);
    cache.set('b', 'stale', mark);
    assert.equal(cache.get('b'), undefined, 'began before the change: may have read what changed');
    cache.set('b', 'B', cache.mark());
    assert.equal(cache.get('b'), 'B');
    assert.equal(cache.stats().clears, 1);
  });

  it('spreads expiries over the last quarter of the time to live, never past it', () => {
    let now = 0;
    const draws = [0, 0.5, 0.999];
    const cache = new SearchResultCache<string>(
      1000,
      10,
      () => now,
      () => draws.shift() ?? 0,
    );
    for (const key of ['a', 'b', 'c']) cache.set(key, key.toUpperCase(), cache.mark());
    now = 749;
    assert.deepEqual(
      ['a', 'b', 'c'].map((key) => cache.get(key)),
      ['A', 'B', 'C'],
    );
    now = 751;
    assert.deepEqual(
      ['a', 'b', 'c'].map((key) => cache.get(key)),
      ['A', 'B', undefined],
    );
    now = 875;
    assert.deepEqual(
      ['a', 'b'].map((key) => cache.get(key)),
      ['A', undefined],
    );
    now = 1000;
    assert.equal(cache.get('a'), undefined, 'no answer outlives the time to live');
  });
});
