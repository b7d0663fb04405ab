import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PageCache } from '../../src/services/page-cache.js';

describe('PageCache', () => {
  it('returns what was stored until it expires', () => {
    let now = 0;
    const cache = new PageCache(10, 1000, () => now);
    cache.set('a', 'book-a', '<a>');
    assert.equal(cache.get('a'), '<a>');
    now = 999;
    assert.equal(cache.get('a'), '<a>');
    now = 1000;
    assert.equal(cache.get('a'), undefined);
  });
  it('evicts the least recently used entry beyond its size', () => {
    const cache = new PageCache(2, 60_000);
    cache.set('a', 't', '1');
    cache.set('b', 't', '2');
    cache.get('a');
    cache.set('c', 't', '3');
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), '1');
    assert.equal(cache.get('c'), '3');
  });
  it('drops every entry of a tag at once', () => {
    const cache = new PageCache();
    cache.set('x?template=compact', 'x', '1');
    cache.set('x', 'x', '2');
    cache.set('y', 'y', '3');
    cache.invalidate('x');
    assert.equal(cache.size, 1);
    assert.equal(cache.get('y'), '3');
  });
  it('keeps a stale entry for peek as long again as its time to live', () => {
    let now = 0;
    const cache = new PageCache(10, 1000, () => now);
    cache.set('a', 'book-a', '<a>');
    now = 1500;
    assert.deepEqual(cache.peek('a'), { value: '<a>', fresh: false });
    now = 2000;
    assert.equal(cache.peek('a'), undefined);
  });
  it('refuses a value made before its tag was invalidated or the cache cleared, not another tag', () => {
    const cache = new PageCache();
    const before = cache.mark();
    cache.invalidate('other');
    cache.set('a', 'a', 'kept', before);
    assert.equal(cache.get('a'), 'kept', "another book's edit does not refuse this page");
    cache.invalidate('a');
    cache.set('a', 'a', 'old', before);
    assert.equal(cache.get('a'), undefined);
    const cleared = cache.mark();
    cache.clear();
    cache.set('b', 'b', 'old', cleared);
    assert.equal(cache.get('b'), undefined);
    cache.set('a', 'a', 'new', cache.mark());
    assert.equal(cache.get('a'), 'new');
  });
});
