import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startCheckpoints } from '../../src/store/checkpoints.js';
import { openStore } from '../../src/store/db.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { insertSearches, type LoggedSearch } from '../../src/store/search/log.js';
import { eventually } from '../support/eventually.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

const row = (n: number): LoggedSearch => ({
  query: `query number ${n}`,
  query_key: `query ${n} ${'x'.repeat(n % 50)}`,
  parsed_title: null,
  parsed_author: null,
  kind: 'text',
  result_count: 1,
  top_book_key: null,
  source: null,
  channel: 'api',
  created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
});

/** SQLite only: PostgreSQL has no WAL of the application's to checkpoint. */
describe('SQLite WAL checkpoints in a thread of their own', () => {
  const dir = mkdtempSync(join(tmpdir(), 'booklink-checkpoints-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("copies committed pages back from the WAL while the server's connection only writes", async () => {
    const store = openStore(`sqlite:${join(dir, 'busy.db')}`);
    await migrateToLatest(store);
    const sqlite = store.sqlite;
    assert.ok(sqlite);
    const checkpoints = startCheckpoints(store, { intervalMs: 20 });
    assert.ok(checkpoints);
    try {
      // The server's connection checkpoints by itself only far past SQLite's 1,000 pages (40 MB).
      assert.equal(sqlite.pragma('wal_autocheckpoint', { simple: true }), 10_000);
      const file = join(dir, 'busy.db');
      const before = statSync(file).size;
      for (let batch = 0; batch < 10; batch++) {
        await insertSearches(
          store.db,
          Array.from({ length: 500 }, (_, i) => row(batch * 500 + i)),
        );
      }
      // In WAL mode the database file grows only when pages are copied back into it: far below its
      // own threshold, the server's connection did not do it, so the thread did.
      const last = await eventually(async () => {
        const { last } = checkpoints.stats();
        const grown = statSync(file).size - before;
        return last && last.log > 0 && last.checkpointed === last.log && grown > 1 << 20 ? last : undefined;
      });
      assert.equal(last.busy, 0);
      assert.equal(checkpoints.stats().failures, 0);
      const count = await store.db
        .selectFrom('searches')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      assert.equal(Number(count?.n), 5000);
    } finally {
      await checkpoints.close();
    }
    // Closed: the connection checkpoints by itself again, at SQLite's default.
    assert.equal(sqlite.pragma('wal_autocheckpoint', { simple: true }), 1000);
    assert.deepEqual(await checkpoints.close(), undefined, 'a second close returns at once');
    await store.close();
  });

  it('reports a thread that cannot run once, and gives the checkpoints back to the connection', async () => {
    const file = join(dir, 'gone.db');
    const store = openStore(`sqlite:${file}`);
    await migrateToLatest(store);
    // The server's connection keeps the unlinked file open; the thread finds no file to open.
    unlinkSync(file);
    const failures: string[] = [];
    const checkpoints = startCheckpoints(store, {
      intervalMs: 20,
      onFailure: (error) => failures.push(error),
    });
    assert.ok(checkpoints);
    await eventually(async () => checkpoints.stats().failures || undefined);
    await checkpoints.close();
    assert.equal(failures.length, 1, failures.join('\n'));
    assert.match(failures[0] ?? '', /checkpoint thread stopped: .*(unable to open|does not exist)/i);
    assert.deepEqual(checkpoints.stats(), { runs: 0, failures: 1, last: null });
    assert.equal(store.sqlite?.pragma('wal_autocheckpoint', { simple: true }), 1000);
    await store.close();
  });

  it("counts the server's checkpoints in /metrics", async () => {
    let server: ServerProcess | undefined;
    try {
      server = await startServerProcess({ DATABASE_URL: `sqlite:${join(dir, 'served.db')}` });
      const counted = async (name: string) => {
        const text = await (await (server as ServerProcess).get('/metrics')).text();
        return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
      };
      // Every 500 ms, whether or not the WAL holds pages.
      const runs = await eventually(async () => {
        const total = await counted('booklink_sqlite_checkpoints_total');
        return total >= 2 ? total : undefined;
      });
      assert.ok(runs >= 2);
      assert.equal(await counted('booklink_sqlite_checkpoint_failures_total'), 0);
      server.child.kill('SIGTERM');
      assert.deepEqual(await server.exit, { code: 0, signal: null }, server.output());
      assert.doesNotMatch(server.output(), /checkpoint failed/);
    } finally {
      server?.child.kill('SIGKILL');
    }
  });

  it('runs no thread for an in-memory database', async () => {
    const store = openStore('sqlite::memory:');
    assert.equal(startCheckpoints(store), null);
    await store.close();
  });
});
