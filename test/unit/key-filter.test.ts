import assert from 'node:assert/strict';
import { it } from 'node:test';
import { KeyFilter } from '../../src/store/key-filter.js';

const keys = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, n) => `${prefix}:${String(9780000000000 + n * 7)}`);

it('never calls a key it was given new, and calls few new keys seen', () => {
  const filter = new KeyFilter(100_000);
  const added = keys('isbn', 50_000);
  let seenFirstTime = 0;
  for (const key of added) if (filter.add(key)) seenFirstTime++;
  for (const key of added) assert.equal(filter.add(key), true, key);
  // Filled on to the size it was made for: under 1 % false positives on the way, however alike the keys.
  let falsePositives = 0;
  const others = [...keys('ol', 25_000), ...keys('isbn', 75_000).slice(50_000)];
  for (const key of others) if (filter.add(key)) falsePositives++;
  assert.ok(falsePositives < others.length * 0.01, `${falsePositives} of ${others.length} new keys`);
  assert.ok(seenFirstTime < added.length * 0.01, `${seenFirstTime} of ${added.length} first keys`);
});

it('sizes itself by the keys expected, within 8 KB and 64 MB', () => {
  assert.equal(new KeyFilter(0).bits, 2 ** 16);
  assert.equal(new KeyFilter(1_000_000).bits, 2 ** 24);
  assert.equal(new KeyFilter(1e12).bits, 2 ** 29);
});
