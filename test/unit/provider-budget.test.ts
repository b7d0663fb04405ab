import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type BudgetDecision, MemoryProviderBudget } from '../../src/catalog/provider-budget.js';

const MINUTE = 60_000;
const verdict = (decision: BudgetDecision) => (decision.allowed ? 'ok' : decision.scope);

describe('the in-process provider budget', () => {
  it('refuses past the window, says until when, and starts afresh with the next window', () => {
    let now = 10 * MINUTE + 15_000;
    const budget = new MemoryProviderBudget(
      { limits: { openlibrary: [{ max: 3, windowMs: MINUTE }] }, addressShare: 1 },
      () => now,
    );
    const takes = () => budget.takeNow('openlibrary', null);
    assert.deepEqual([takes(), takes(), takes()].map(verdict), ['ok', 'ok', 'ok']);
    const refused = takes();
    assert.equal(verdict(refused), 'global');
    assert.equal(refused.allowed ? 0 : refused.retryAfterMs, 45_000, 'until the window ends');
    assert.equal(verdict(budget.takeNow('googlebooks', null)), 'ok', 'a provider without a budget');
    now = 11 * MINUTE;
    assert.equal(verdict(takes()), 'ok');
  });

  it('holds each address to its share and every window of a provider at once', () => {
    let now = 0;
    const budget = new MemoryProviderBudget(
      {
        limits: {
          googlebooks: [
            { max: 4, windowMs: 1000 },
            { max: 6, windowMs: MINUTE },
          ],
        },
        addressShare: 0.5,
      },
      () => now,
    );
    const take = (who: string | null) => verdict(budget.takeNow('googlebooks', who));
    assert.deepEqual([take('a'), take('a'), take('a')], ['ok', 'ok', 'address']);
    // b has its share too, but the second-long window is full by then: for everyone.
    assert.deepEqual([take('b'), take('b'), take('b')], ['ok', 'ok', 'global']);
    assert.equal(take(null), 'global');
    now = 1000;
    // A new second, but the minute holds six: two more, whoever asks.
    assert.deepEqual([take('c'), take(null), take('d')], ['ok', 'ok', 'global']);
  });
});
