import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import type { Store } from '../../src/store/db.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/**
 * The real `booklink serve` in a child process, stopped the two ways production stops it:
 * SIGTERM (a deploy) must lose no click; SIGKILL (OOM killer, power) loses at most the one second
 * of clicks the recorder buffers. Each click carries its own `sfid`, so we know exactly which survived.
 */
const ISBN = '9780141439518';

const startServer = (databaseUrl: string) => startServerProcess({ DATABASE_URL: databaseUrl });

const get = (server: ServerProcess, path: string) => server.get(path);

async function createBook(server: ServerProcess): Promise<string> {
  const response = await get(server, `/isbn/${ISBN}`);
  assert.equal(response.status, 302);
  return (response.headers.get('location') ?? '').replace('/book/', '');
}

/** One click: true when the server answered the 302 (and so promised to count it). */
async function click(server: ServerProcess, slug: string, sfid: number): Promise<boolean> {
  try {
    const response = await get(server, `/go/${slug}/worldcat?sfid=${sfid}`);
    await response.arrayBuffer();
    return response.status === 302;
  } catch {
    return false;
  }
}

async function recordedSfids(store: Store, from: number, to: number): Promise<Set<number>> {
  const rows = await store.db
    .selectFrom('clicks')
    .select('sfid')
    .where('sfid', '>=', from)
    .where('sfid', '<', to)
    .execute();
  return new Set(rows.map((row) => Number(row.sfid)));
}

function missing(expected: Iterable<number>, recorded: Set<number>): number[] {
  return [...expected].filter((sfid) => !recorded.has(sfid));
}

describeEachDialect('clicks on shutdown', (context) => {
  before(() =>
    addCatalogEntry(context.store(), {
      isbn13: ISBN,
      title: 'Pride and Prejudice',
      authors: ['Jane Austen'],
    }),
  );
  let server: ServerProcess | undefined;
  after(() => void server?.child.kill('SIGKILL'));

  it('SIGTERM after a burst of clicks: exit 0 and every click is in the table', async () => {
    server = await startServer(context.url());
    const slug = await createBook(server);
    const sfids = Array.from({ length: 300 }, (_, i) => 1000 + i);
    // Eight at a time, like a handful of busy readers; the last ones are still in the buffer at SIGTERM.
    for (let i = 0; i < sfids.length; i += 8) {
      const answered = await Promise.all(
        sfids.slice(i, i + 8).map((sfid) => click(server as ServerProcess, slug, sfid)),
      );
      assert.ok(answered.every(Boolean));
    }
    server.child.kill('SIGTERM');
    assert.deepEqual(await server.exit, { code: 0, signal: null }, server.output());
    assert.deepEqual(missing(sfids, await recordedSfids(context.store(), 1000, 2000)), []);
  });

  it('SIGTERM in the middle of a stream of clicks: every answered click is in the table', async () => {
    server = await startServer(context.url());
    const slug = await createBook(server);
    const answered: number[] = [];
    let next = 2000;
    let stopped = false;
    const worker = async () => {
      while (!stopped && next < 3000) {
        const sfid = next++;
        if (await click(server as ServerProcess, slug, sfid)) answered.push(sfid);
        else stopped = true;
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    while (answered.length < 150) await delay(5);
    server.child.kill('SIGTERM');
    await Promise.all(workers);
    assert.deepEqual(await server.exit, { code: 0, signal: null }, server.output());
    const recorded = await recordedSfids(context.store(), 2000, 3000);
    assert.deepEqual(missing(answered, recorded), []);
    assert.ok(recorded.size <= next - 2000);
  });

  it('SIGKILL loses at most the last second of clicks', async () => {
    server = await startServer(context.url());
    const slug = await createBook(server);
    const answeredAt = new Map<number, number>();
    let next = 3000;
    let killed = false;
    // A steady stream, not a saturating one: the flush timer must not be starved by the test itself.
    const worker = async () => {
      while (!killed) {
        const sfid = next++;
        if (await click(server as ServerProcess, slug, sfid)) answeredAt.set(sfid, performance.now());
        await delay(5);
      }
    };
    const workers = Array.from({ length: 2 }, worker);
    // At least 3.5 s, and long enough for 100 clicks to be older than 1.5 s on a slow (loaded) machine.
    const streamStarted = performance.now();
    const olderThan = (ms: number) =>
      [...answeredAt.values()].filter((at) => performance.now() - at > ms).length;
    await delay(3500);
    while (olderThan(1500) <= 100 && performance.now() - streamStarted < 30_000) await delay(100);
    const killedAt = performance.now();
    killed = true;
    server.child.kill('SIGKILL');
    assert.equal((await server.exit).signal, 'SIGKILL');
    await Promise.all(workers);

    const recorded = await recordedSfids(context.store(), 3000, next);
    const old = [...answeredAt].filter(([, at]) => killedAt - at > 1500).map(([sfid]) => sfid);
    assert.ok(old.length > 100, `only ${old.length} clicks were answered before the last 1.5 s`);
    assert.deepEqual(missing(old, recorded), []);
    const lost = missing(answeredAt.keys(), recorded);
    const oldestLostMs = Math.max(0, ...lost.map((sfid) => killedAt - (answeredAt.get(sfid) ?? killedAt)));
    console.log(
      `  SIGKILL [${context.dialect}]: ${lost.length} of ${answeredAt.size} clicks lost, the oldest ${Math.round(oldestLostMs)} ms before the kill`,
    );
  });
});
