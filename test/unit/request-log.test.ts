import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { lineBatches, requestLog } from '../../src/http/request-log.js';

describe('lineBatches', () => {
  it('hands lines on together, in order, once they reach the batch length', () => {
    const batches: string[] = [];
    const log = lineBatches((batch) => batches.push(batch), { minLength: 10, flushEveryMs: 60_000 });
    log.write('abcd\n');
    log.write('efgh');
    assert.deepEqual(batches, [], 'nine characters stay gathered');
    log.write('\n');
    assert.deepEqual(batches, ['abcd\nefgh\n']);
    log.write('ij\n');
    log.flushSync();
    log.flushSync();
    assert.deepEqual(batches, ['abcd\nefgh\n', 'ij\n'], 'flushSync hands the rest on once');
  });

  it('hands on what a quiet server has gathered after the flush interval', async () => {
    const batches: string[] = [];
    const log = lineBatches((batch) => batches.push(batch), { minLength: 4096, flushEveryMs: 20 });
    log.write('one\n');
    log.write('two\n');
    for (let waited = 0; batches.length === 0 && waited < 2000; waited += 10) await delay(10);
    assert.deepEqual(batches, ['one\ntwo\n']);
  });

  it('carries whole request lines through to the writer', () => {
    const batches: string[] = [];
    const stream = lineBatches((batch) => batches.push(batch), { minLength: 1, flushEveryMs: 60_000 });
    const log = requestLog(stream, 'info');
    assert.ok(log);
    const request = { method: 'GET', url: '/b/x', host: 'h', ip: '127.0.0.1', headers: { cookie: 'c=1' } };
    log.completed('req-1', request, 200, 1.5);
    log.completed('req-2', request, 304, 0.5);
    const lines = batches.map((batch) => JSON.parse(batch) as Record<string, unknown>);
    assert.deepEqual(
      lines.map((line) => [line.reqId, (line.res as { statusCode: number }).statusCode]),
      [
        ['req-1', 200],
        ['req-2', 304],
      ],
    );
    const first = lines[0]?.req as { headers: unknown } | undefined;
    assert.deepEqual(first?.headers, { cookie: '[redacted]' });
  });
});
