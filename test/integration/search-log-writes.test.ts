import assert from 'node:assert/strict';
import { it } from 'node:test';
import { insertSearches, type LoggedSearch } from '../../src/store/search/log.js';
import { describeEachDialect } from '../support/databases.js';

function logged(n: number): LoggedSearch {
  return {
    query: `Dune ${n} "quoted" \\ back`,
    query_key: `dune ${n}`,
    parsed_title: n % 3 === 0 ? null : `dune ${n}`,
    parsed_author: n % 2 === 0 ? 'herbert' : null,
    kind: n % 5 === 0 ? 'isbn' : 'text',
    result_count: n % 7,
    top_book_key: n % 4 === 0 ? null : `978000000${String(n).padStart(4, '0')}`,
    source: n % 6 === 0 ? null : 'app-test',
    channel: n % 2 === 0 ? 'api' : 'page',
    created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(),
  };
}

/** The search log's batch writes (the recorder's flush): every column of every row, whatever the batch size. */
describeEachDialect('search log writes', (context) => {
  it('writes each row as given, in batches of one statement, several, and a remainder', async () => {
    const db = context.store().db;
    // 1 row, then 200 (one full statement), then 451 (two full statements and 51), then 1 again.
    const batches = [[0], [1, 201], [201, 652], [652, 653]].map(([from = 0, to = from + 1]) =>
      Array.from({ length: to - from }, (_, i) => logged(from + i)),
    );
    for (const batch of batches) await insertSearches(db, batch);
    const rows = await db.selectFrom('searches').selectAll().orderBy('id').execute();
    assert.equal(rows.length, 653);
    rows.forEach(({ id, ...row }, n) => {
      assert.ok(id > 0);
      assert.deepEqual({ ...row, result_count: Number(row.result_count) }, logged(n), `row ${n}`);
    });
  });
});

describeEachDialect('search log writes in turns', (context) => {
  it('answers other work between its statements and still writes a batch all or none', async () => {
    const db = context.store().db;
    const order: string[] = [];
    // Scheduled before a three-statement batch: on SQLite, whose statements run synchronously, it runs
    // only if the write lets the event loop take a turn before its end.
    setImmediate(() => order.push('another request'));
    await insertSearches(
      db,
      Array.from({ length: 451 }, (_, n) => logged(n)),
    );
    order.push('batch written');
    assert.deepEqual(order, ['another request', 'batch written']);

    // A row the database refuses in the last statement: the two statements before it are undone too.
    const refused = { ...logged(450), query: null } as unknown as LoggedSearch;
    const batch = [...Array.from({ length: 450 }, (_, n) => logged(1000 + n)), refused];
    await assert.rejects(insertSearches(db, batch));
    const count = await db.selectFrom('searches').select(db.fn.countAll<number>().as('n')).executeTakeFirst();
    assert.equal(Number(count?.n), 451);
  });
});
