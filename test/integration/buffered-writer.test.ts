import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, it } from 'node:test';
import { sql } from 'kysely';
import { BufferedWriter } from '../../src/services/buffered-writer.js';
import { addUsage, listUsage, type UsageRow } from '../../src/store/api-usage.js';
import { type ClickRecord, insertClicks } from '../../src/store/click-writes.js';
import { describeEachDialect } from '../support/databases.js';

/**
 * The one buffered writer behind clicks, the search log and API usage (issue 49, point 3): its bound
 * while writes cannot keep up, and the dead-letter file for rows the database refuses, through the
 * real tables on both databases.
 */
const click = (sfid: number): ClickRecord => ({
  bookId: 1,
  destinationId: 7,
  sfid,
  country: 'DE',
  referrerHost: null,
  at: new Date('2025-06-01T12:00:00Z'),
});

/** A promise and the function that resolves it. */
function opening(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

function recordingLogger() {
  const messages: string[] = [];
  return { messages, error: (_details: object, message: string) => void messages.push(message) };
}

describeEachDialect('buffered writer', (context) => {
  const dir = mkdtempSync(join(tmpdir(), 'booklink-writer-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    const { db } = context.store();
    await db.deleteFrom('clicks').execute();
    await sql`delete from api_usage`.execute(db);
  });

  it('keeps at most maxPending rows while a write is held up, drops the oldest, and writes the rest once it goes through', async () => {
    const { db } = context.store();
    const logger = recordingLogger();
    const writer = new BufferedWriter<ClickRecord>({
      name: 'click',
      write: (rows) => insertClicks(db, rows),
      flushIntervalMs: 60_000,
      maxBatch: 10,
      maxPending: 25,
      logger,
    });
    // Another transaction holds the table (PostgreSQL) or the connection (SQLite) until released.
    const gate = opening();
    const lockTaken = opening();
    const holder = db.transaction().execute(async (trx) => {
      if (context.dialect === 'postgres') await sql`lock table clicks in access exclusive mode`.execute(trx);
      lockTaken.resolve();
      await gate.promise;
    });
    await lockTaken.promise;
    // The tenth click starts a write of the first ten, which now waits on the lock.
    for (let sfid = 1; sfid <= 50; sfid++) {
      void writer.record(click(sfid));
      assert.ok(writer.stats().pending <= 25, `pending ${writer.stats().pending} after click ${sfid}`);
    }
    assert.deepEqual(writer.stats(), {
      recorded: 50,
      flushed: 0,
      pending: 25,
      dropped: 15,
      setAside: 0,
      failedFlushes: 0,
    });
    assert.equal(logger.messages.filter((message) => message.includes('beyond the bound')).length, 1);
    gate.resolve();
    await holder;
    assert.equal(await writer.close(), true);
    const rows = await db.selectFrom('clicks').select('sfid').orderBy('sfid').execute();
    assert.deepEqual(
      rows.map((row) => Number(row.sfid)),
      [...Array.from({ length: 10 }, (_, i) => i + 1), ...Array.from({ length: 25 }, (_, i) => i + 26)],
      'the batch already being written and the newest 25 are stored; the 15 in between were dropped',
    );
    assert.equal(writer.stats().flushed, 35);
  });

  it('sets the rows the database refuses aside in the dead-letter file and writes every other row, in order', async () => {
    const { db } = context.store();
    const deadLetterFile = join(dir, `rows-${context.dialect}.jsonl`);
    const writer = new BufferedWriter<ClickRecord>({
      name: 'click',
      write: (rows) => insertClicks(db, rows),
      flushIntervalMs: 60_000,
      maxRetries: 1,
      logger: recordingLogger(),
      deadLetterFile,
    });
    for (let sfid = 1; sfid <= 30; sfid++) {
      const refused = sfid === 7 || sfid === 23;
      void writer.record(refused ? { ...click(sfid), bookId: null as unknown as number } : click(sfid));
    }
    await writer.flush(); // refused once: kept for a retry
    assert.equal(writer.stats().pending, 30);
    await writer.flush(); // refused again: split until the two refused rows are alone
    const rows = await db.selectFrom('clicks').select('sfid').orderBy('id').execute();
    assert.deepEqual(
      rows.map((row) => Number(row.sfid)),
      Array.from({ length: 30 }, (_, i) => i + 1).filter((sfid) => sfid !== 7 && sfid !== 23),
    );
    const dead = readFileSync(deadLetterFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      dead.map((line) => [line.click.sfid, line.click.bookId, typeof line.error]),
      [
        [7, null, 'string'],
        [23, null, 'string'],
      ],
    );
    assert.deepEqual(writer.stats(), {
      recorded: 30,
      flushed: 28,
      pending: 0,
      dropped: 0,
      setAside: 2,
      failedFlushes: 2,
    });
    assert.equal(await writer.close(), true);
  });

  it('merges counters in memory, and sets a refused counter aside with its whole count', async () => {
    const { db } = context.store();
    const deadLetterFile = join(dir, `counters-${context.dialect}.jsonl`);
    const writer = new BufferedWriter<UsageRow>({
      name: 'counter',
      write: (rows) => addUsage(db, rows),
      flushIntervalMs: 60_000,
      maxRetries: 1,
      logger: recordingLogger(),
      deadLetterFile,
      coalesce: {
        key: (row) => JSON.stringify([row.day, row.keyId, row.route, row.source]),
        merge: (into, row) => {
          into.count += row.count;
        },
      },
      weight: (row) => row.count,
    });
    const counter = (route: string | null, source: string): UsageRow => ({
      day: '2025-06-01',
      keyId: null,
      source,
      route: route as string,
      count: 1,
    });
    for (let call = 0; call < 4; call++) void writer.record(counter('/api/v1/search', 'web'));
    for (let call = 0; call < 3; call++) void writer.record(counter(null, 'bad'));
    void writer.record(counter('/api/v1/resolve', 'app'));
    assert.equal(writer.stats().pending, 8);
    await writer.flush();
    await writer.flush();
    assert.deepEqual(
      (await listUsage(db)).map((row) => [row.source, row.route, row.count]),
      [
        ['app', '/api/v1/resolve', 1],
        ['web', '/api/v1/search', 4],
      ],
    );
    const dead = readFileSync(deadLetterFile, 'utf8').trim().split('\n');
    assert.equal(dead.length, 1);
    assert.equal(JSON.parse(dead[0] ?? '{}').counter.count, 3);
    assert.deepEqual(writer.stats(), {
      recorded: 8,
      flushed: 5,
      pending: 0,
      dropped: 0,
      setAside: 3,
      failedFlushes: 2,
    });
    assert.equal(await writer.close(), true);
  });
});
