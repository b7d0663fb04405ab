import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cheapestPlan } from '../../src/store/search/postgres-plans.js';

/** PostgreSQL's retrieval plan, chosen from the word list's counts and the catalog's shape. */
describe('search plan on PostgreSQL', () => {
  const dump = { rows: 10_000_000, ratedShare: 0.001 };
  const curated = { rows: 5_000, ratedShare: 1 };

  it('fetches every match when they are few', () => {
    assert.equal(cheapestPlan(150, 1, dump), 'fetch');
    assert.equal(cheapestPlan(150, 3, curated), 'fetch');
  });

  it('bounds the unrated matches of common words in a mostly unrated catalog', () => {
    // Several words: the GIN index intersects them, and 200 of the unrated matches are read.
    assert.equal(cheapestPlan(20_000, 2, dump), 'bounded');
    // One word in 4 % of the entries: a sequential scan finds 200 in 5,000 rows.
    assert.equal(cheapestPlan(390_000, 1, dump), 'scan');
    // One word in 0.2 % of them: too sparse for a scan.
    assert.equal(cheapestPlan(20_000, 1, dump), 'bounded');
  });

  it('walks the popularity index for one common word where every entry is rated, and never for several', () => {
    assert.equal(cheapestPlan(1_500, 1, curated), 'walk');
    assert.equal(cheapestPlan(1_500, 2, curated), 'fetch');
  });
});
