import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import { type Click, ClickRecorder, type ClickRecorderLogger } from '../../src/services/click-recorder.js';
import type { Database } from '../../src/store/schema.js';
import { describeEachDialect } from '../support/databases.js';

const click = (bookId: number, at = new Date('2025-06-01T12:00:00Z')): Click => ({
  bookId,
  destinationId: 7,
  sfid: 42,
  country: 'DE',
  referrerHost: 'example.org',
  at,
});

async function storedClicks(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('clicks').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await delay(20);
  }
}

const silent: ClickRecorderLogger = { error: () => undefined };

describeEachDialect('click recorder', (context) => {
  beforeEach(async () => {
    await context.store().db.deleteFrom('clicks').execute();
  });

  it('buffers without touching the database, then flushes on the timer', async () => {
    const { db } = context.store();
    const recorder = new ClickRecorder(db, { flushIntervalMs: 300, maxBatch: 1000 });
    recorder.record(click(1));
    recorder.record(click(2));
    assert.deepEqual(recorder.stats(), { recorded: 2, flushed: 0, pending: 2, dropped: 0, failedFlushes: 0 });
    assert.equal(await storedClicks(db), 0);
    await waitFor(async () => (await storedClicks(db)) === 2);
    assert.equal(recorder.stats().flushed, 2);
    await recorder.close();
    const row = await db.selectFrom('clicks').selectAll().where('book_id', '=', 1).executeTakeFirstOrThrow();
    assert.deepEqual(
      [row.destination_id, row.sfid, row.country, row.referrer_host, row.created_at].map(String),
      ['7', '42', 'DE', 'example.org', '2025-06-01T12:00:00.000Z'],
    );
  });

  it('flushes as soon as the buffer reaches the batch size', async () => {
    const { db } = context.store();
    const recorder = new ClickRecorder(db, { flushIntervalMs: 60_000, maxBatch: 5 });
    for (let i = 0; i < 5; i++) recorder.record(click(i));
    await waitFor(async () => (await storedClicks(db)) === 5);
    await recorder.close();
  });

  it('writes everything still waiting on close, in batches larger than one statement', async () => {
    const { db } = context.store();
    const recorder = new ClickRecorder(db, { flushIntervalMs: 60_000, maxBatch: 10_000 });
    for (let i = 0; i < 1234; i++) recorder.record(click(i));
    await recorder.close();
    assert.equal(await storedClicks(db), 1234);
    assert.deepEqual(recorder.stats(), {
      recorded: 1234,
      flushed: 1234,
      pending: 0,
      dropped: 0,
      failedFlushes: 0,
    });
  });

  it('loses nothing when clicks arrive while a flush is running', async () => {
    const { db } = context.store();
    const recorder = new ClickRecorder(db, { flushIntervalMs: 10, maxBatch: 3 });
    for (let i = 0; i < 50; i++) {
      recorder.record(click(i));
      if (i % 7 === 0) await delay(1);
    }
    await recorder.close();
    assert.equal(await storedClicks(db), 50);
  });

  it('keeps the rows of a failed flush and writes them on retry', async () => {
    const { db } = context.store();
    const errors: string[] = [];
    const logger: ClickRecorderLogger = { error: (_details, message) => errors.push(message) };
    const recorder = new ClickRecorder(db, { flushIntervalMs: 60_000, maxBatch: 1000, logger });
    // A click that breaks the NOT NULL constraint fails its whole batch once; then we take it out.
    const broken = { ...click(1), destinationId: null as unknown as number };
    recorder.record(click(2));
    recorder.record(broken);
    await recorder.flush();
    assert.equal(await storedClicks(db), 0);
    assert.equal(recorder.stats().pending, 2);
    assert.match(errors[0] ?? '', /will retry/);
    broken.destinationId = 8;
    await recorder.flush();
    assert.equal(await storedClicks(db), 2);
    assert.deepEqual(recorder.stats(), { recorded: 2, flushed: 2, pending: 0, dropped: 0, failedFlushes: 1 });
    await recorder.close();
  });

  it('gives up a batch after the bounded retries so close always finishes', async () => {
    const { db } = context.store();
    const recorder = new ClickRecorder(db, { maxRetries: 2, retryDelayMs: 1, logger: silent });
    recorder.record({ ...click(1), bookId: null as unknown as number });
    await recorder.close();
    assert.deepEqual(recorder.stats(), { recorded: 1, flushed: 0, pending: 0, dropped: 1, failedFlushes: 3 });
    recorder.record(click(3));
    assert.equal(recorder.stats().dropped, 2, 'clicks after close are counted as dropped');
  });
});
