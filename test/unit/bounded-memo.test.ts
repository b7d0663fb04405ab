import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boundedMemo } from '../../src/domain/bounded-memo.js';
import { isAutomatedClient } from '../../src/http/plugins/guards.js';

/** A memo of `key.length` that records every key it had to compute. */
function counting(options: { maxEntries?: number; maxKeyLength?: number }) {
  const computed: string[] = [];
  const memo = boundedMemo((key) => {
    computed.push(key);
    return key === 'none' ? undefined : key.length;
  }, options);
  return { memo, computed };
}

describe('boundedMemo', () => {
  it('computes each key once, undefined answers included', () => {
    const { memo, computed } = counting({});
    assert.equal(memo('abc'), 3);
    assert.equal(memo('abc'), 3);
    assert.equal(memo('none'), undefined);
    assert.equal(memo('none'), undefined);
    assert.deepEqual(computed, ['abc', 'none']);
  });

  it('forgets the least recently used key beyond its size', () => {
    const { memo, computed } = counting({ maxEntries: 2 });
    memo('a');
    memo('bb');
    memo('a');
    memo('ccc');
    computed.length = 0;
    memo('a');
    memo('ccc');
    assert.deepEqual(computed, []);
    memo('bb');
    assert.deepEqual(computed, ['bb']);
  });

  it('never stores a key longer than the limit', () => {
    const { memo, computed } = counting({ maxKeyLength: 4 });
    memo('abcde');
    memo('abcde');
    memo('abcd');
    memo('abcd');
    assert.deepEqual(computed, ['abcde', 'abcde', 'abcd']);
  });
});

describe('isAutomatedClient (remembered per User-Agent)', () => {
  const browser =
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
  it('answers the same on every call', () => {
    for (let i = 0; i < 3; i++) {
      assert.equal(isAutomatedClient(browser), false);
      assert.equal(isAutomatedClient('Googlebot/2.1 (+http://www.google.com/bot.html)'), true);
      assert.equal(isAutomatedClient('MyCrawler 1.0'), true);
      assert.equal(isAutomatedClient('   '), true);
      assert.equal(isAutomatedClient(undefined), true);
    }
  });
  it('still judges a User-Agent too long to remember', () => {
    const padding = ' Gecko'.repeat(100);
    assert.equal(isAutomatedClient(`${browser}${padding}`), false);
    assert.equal(isAutomatedClient(`${browser}${padding} Googlebot/2.1`), true);
  });
});
