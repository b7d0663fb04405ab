import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, beforeEach, it } from 'node:test';
import { sql } from 'kysely';
import { UsageRecorder, usageSource } from '../../src/services/api-usage.js';
import { type Click, ClickRecorder, replayClickJournals } from '../../src/services/click-recorder.js';
import { listUsage } from '../../src/store/api-usage.js';
import { startTestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';

/**
 * Issue 11: one row the database refuses must not cost every other row of its batch (40 real clicks
 * and 1 poisoned were all dropped), and one `source=%00` must not stop API usage accounting for good.
 */
const click = (sfid: number): Click => ({
  bookId: 1,
  destinationId: 7,
  sfid,
  country: 'DE',
  referrerHost: 'example.org',
  at: new Date('2025-06-01T12:00:00Z'),
});
const silent = { error: () => undefined };

describeEachDialect('refused rows are set aside, the rest is written', (context) => {
  const dir = mkdtempSync(join(tmpdir(), 'booklink-dead-letter-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  beforeEach(async () => {
    const { db } = context.store();
    await db.deleteFrom('clicks').execute();
    await sql`delete from api_usage`.execute(db);
  });

  it('a click batch with one poisoned row writes the 40 real clicks and sets the poisoned one aside', async () => {
    const { db } = context.store();
    const deadLetterFile = join(dir, 'clicks.jsonl');
    const recorder = new ClickRecorder(db, {
      flushIntervalMs: 60_000,
      maxBatch: 1000,
      maxRetries: 2,
      logger: silent,
      deadLetterFile,
    });
    for (let sfid = 1; sfid <= 20; sfid++) void recorder.record(click(sfid));
    void recorder.record({ ...click(999), destinationId: null as unknown as number });
    for (let sfid = 21; sfid <= 40; sfid++) void recorder.record(click(sfid));
    for (let attempt = 0; attempt < 3; attempt++) await recorder.flush();
    const rows = await db.selectFrom('clicks').select('sfid').orderBy('sfid').execute();
    assert.deepEqual(
      rows.map((row) => Number(row.sfid)),
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    assert.deepEqual(recorder.stats(), {
      recorded: 41,
      flushed: 40,
      pending: 0,
      dropped: 1,
      failedFlushes: 3,
    });
    const dead = readFileSync(deadLetterFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.equal(dead.length, 1);
    assert.equal(dead[0].click.sfid, 999);
    // Later clicks are written as usual.
    void recorder.record(click(41));
    await recorder.close();
    assert.equal((await db.selectFrom('clicks').select('sfid').execute()).length, 41);
  });

  it('a usage counter the database refuses is set aside; the other counters keep being written', async () => {
    const { db } = context.store();
    const recorder = new UsageRecorder(db, { flushIntervalMs: 60_000, logger: silent });
    const at = new Date('2025-06-01T12:00:00Z');
    recorder.record({ keyId: null, source: 'web', route: '/api/v1/search', at });
    recorder.record({ keyId: null, source: 'bad', route: null as unknown as string, at });
    recorder.record({ keyId: null, source: 'app', route: '/api/v1/resolve', at });
    await recorder.flush();
    await recorder.flush();
    assert.equal(recorder.stats().setAside, 1);
    recorder.record({ keyId: null, source: 'web', route: '/api/v1/search', at });
    await recorder.close();
    const rows = await listUsage(db);
    assert.deepEqual(
      rows.map((row) => [row.source, row.route, row.count]),
      [
        ['app', '/api/v1/resolve', 1],
        ['web', '/api/v1/search', 2],
      ],
    );
  });

  it('source=%00 cannot poison usage accounting: NUL and control characters are stripped before buffering', async () => {
    assert.equal(usageSource('\u0000'), null);
    assert.equal(usageSource('my\u0000app\u001f'), 'myapp');
    const api = await startTestApp(context.store(), {}, { textSearch: null, usageFlushIntervalMs: 60_000 });
    try {
      await api.get('/api/v1/search?q=persuasion&source=%00');
      await api.get('/api/v1/search?q=persuasion&source=bad%00name');
      const ok = await api.get('/api/v1/search?q=persuasion&source=web');
      assert.equal(ok.status, 200);
      await api.services.usage.flush();
      assert.equal(api.services.usage.stats().failedFlushes, 0);
      const sources = (await listUsage(context.store().db)).map((row) => row.source);
      assert.ok(sources.includes('web'), `stored: ${JSON.stringify(sources)}`);
      assert.ok(sources.every((source) => source === null || !source.includes('\u0000')));
    } finally {
      await api.close();
    }
  });

  it('replays an orphan journal once: skips what its mark says was written and a torn last line, leaves live ones', async () => {
    const { db } = context.store();
    const walDir = join(dir, 'replay');
    // A process id that is certainly gone, and one that is certainly alive (this test's parent).
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid;
    const orphan = join(walDir, `${deadPid}-0a1b`);
    const live = join(walDir, `${process.ppid}-0c2d`);
    mkdirSync(orphan, { recursive: true });
    mkdirSync(live, { recursive: true });
    const line = (seq: number) =>
      `${JSON.stringify({ s: seq, c: { ...click(500 + seq), at: '2025-06-01T12:00:00.000Z' } })}\n`;
    writeFileSync(join(orphan, '1.log'), `${line(1)}${line(2)}`);
    writeFileSync(join(orphan, '2.log'), `${line(3)}{"s":4,"c":{"bookId"`);
    writeFileSync(join(live, '1.log'), line(9));
    // The dead process had written seq 1 (and recorded so in the same transaction).
    await db.insertInto('settings').values({ key: 'click-journal:0a1b', value: '1' }).execute();
    const result = await replayClickJournals(db, { dir: walDir, deadLetterFile: null, logger: silent });
    assert.deepEqual(result, { journals: 1, replayed: 2 });
    const rows = await db.selectFrom('clicks').select('sfid').orderBy('sfid').execute();
    assert.deepEqual(
      rows.map((row) => Number(row.sfid)),
      [502, 503],
    );
    assert.equal(existsSync(orphan), false, 'a replayed journal is deleted');
    assert.equal(existsSync(live), true, "a live process's journal is left alone");
    const mark = await db
      .selectFrom('settings')
      .select('key')
      .where('key', '=', 'click-journal:0a1b')
      .execute();
    assert.deepEqual(mark, []);
    // A second start finds nothing more to replay.
    assert.deepEqual(await replayClickJournals(db, { dir: walDir, deadLetterFile: null, logger: silent }), {
      journals: 0,
      replayed: 0,
    });
  });
});
