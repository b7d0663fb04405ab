import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cheapestPlan, estimatedMatches } from '../../src/store/search/postgres-plans.js';

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

/** The matches a plan is chosen for, from the word list's counts (what one SQL statement summed before). */
describe('estimated matches on PostgreSQL', () => {
  const counts = new Map([
    ['pride', 120],
    ['prejudice', 40],
    ['zombies', 3],
    ['secret', 300],
    ['secrets', 90],
  ]);

  it('takes the rarest group of an AND and the sum of an OR', () => {
    const groups = [['pride'], ['prejudice'], ['zombies']];
    assert.equal(estimatedMatches(groups, 'and', counts, null), 3);
    assert.equal(estimatedMatches(groups, 'or', counts, null), 163);
  });

  it("sums a group's alternatives, each once, and counts an unlisted word as none", () => {
    assert.equal(estimatedMatches([['pride', 'pride', 'prejudice']], 'and', counts, null), 160);
    assert.equal(estimatedMatches([['pride'], ['unheard']], 'and', counts, null), 0);
  });

  it("reads the last group's first word as a prefix, and its other words only where the prefix misses them", () => {
    const listing = { documents: 395, first: ['secret', 'secretary', 'secrets'] };
    const prefix = { word: 'secret', listing };
    // "secrets" is within the prefix: counted in its 395 already. "zombies" is not.
    assert.equal(estimatedMatches([['pride'], ['secret', 'secrets']], 'and', counts, prefix), 120);
    assert.equal(estimatedMatches([['secret', 'secrets', 'zombies']], 'and', counts, prefix), 398);
    // The prefix is the last group's only: an earlier group's "secret" counts exactly.
    assert.equal(estimatedMatches([['secret'], ['secret']], 'or', counts, prefix), 695);
  });
});
