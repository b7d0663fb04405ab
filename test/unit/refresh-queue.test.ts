import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { RefreshQueue } from '../../src/services/refresh-queue.js';

describe('RefreshQueue', () => {
  it('runs one job a turn of the event loop, and a queued key once', async () => {
    const errors: unknown[] = [];
    const queue = new RefreshQueue((error) => errors.push(error));
    const ran: string[] = [];
    const turns: string[] = [];
    queue.schedule('a', async () => {
      ran.push('a');
    });
    queue.schedule('a', async () => {
      ran.push('a again');
    });
    queue.schedule('b', async () => {
      ran.push('b');
      throw new Error('boom');
    });
    // Nothing runs inside the call that scheduled it: the request that found the page stale is answered first.
    assert.deepEqual(ran, []);
    for (let turn = 0; turn < 6; turn++) {
      await nextTurn();
      turns.push(ran.join(','));
    }
    assert.deepEqual(ran, ['a', 'b']);
    assert.equal(turns[0], 'a', 'the second job waits for a turn of its own');
    assert.equal((errors[0] as Error).message, 'boom');
    assert.equal(queue.size, 0);
  });
  it('drops jobs beyond its bound', async () => {
    // 'a' is taken at once (running), 'b' waits, 'c' finds the queue full.
    const queue = new RefreshQueue(() => {}, 1);
    let ran = 0;
    for (const key of ['a', 'b', 'c']) {
      queue.schedule(key, async () => {
        ran += 1;
      });
    }
    while (queue.size > 0) await nextTurn();
    await nextTurn();
    assert.equal(ran, 2);
  });
});
