import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { FairTurns } from '../../src/services/fair-turns.js';

/** Lets every microtask queued so far run, without giving the event loop a turn. */
async function microtasks(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe('FairTurns', () => {
  it('starts work at once on an idle loop, within the same call', async () => {
    const turns = new FairTurns(2, () => 0);
    const started: string[] = [];
    const answer = turns.run(async () => {
      started.push('a');
      return 42;
    });
    assert.deepEqual(started, ['a']);
    assert.equal(await answer, 42);
    assert.equal(turns.deferred(), 0);
  });

  it('makes work past the slice wait for the next turn, in order of arrival, one slice a turn', async () => {
    let clock = 0;
    const turns = new FairTurns(2, () => clock);
    const started: string[] = [];
    const work = (name: string, takesMs: number) => async () => {
      started.push(name);
      clock += takesMs;
      return name;
    };
    const answers = [turns.run(work('a', 5))];
    // a held the loop for 5 ms: b and c arrive in the same turn and wait for the next.
    answers.push(turns.run(work('b', 1)), turns.run(work('c', 3)));
    await microtasks();
    assert.deepEqual(started, ['a']);

    // The next turn starts b, and c as b ends inside the new slice; c's 3 ms use the slice up.
    await nextTurn();
    assert.deepEqual(started, ['a', 'b', 'c']);
    answers.push(turns.run(work('d', 1)), turns.run(work('e', 1)));
    await microtasks();
    assert.deepEqual(started, ['a', 'b', 'c'], 'work that arrives after the slice is spent waits');

    await nextTurn();
    assert.deepEqual(started, ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(await Promise.all(answers), ['a', 'b', 'c', 'd', 'e']);
    assert.equal(turns.deferred(), 4);
  });

  it('passes a failure to its caller and goes on with the work that waits', async () => {
    let clock = 0;
    const turns = new FairTurns(2, () => clock);
    const failing = turns.run(async () => {
      clock += 10;
      throw new Error('boom');
    });
    const next = turns.run(async () => 'after');
    await assert.rejects(failing, /boom/);
    assert.equal(await next, 'after');
  });
});
