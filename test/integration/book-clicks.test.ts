import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type ClickRecord, insertClicks } from '../../src/store/click-writes.js';
import type { Db } from '../../src/store/schema.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { describeEachDialect } from '../support/databases.js';
import { bookRecord } from '../support/factories.js';

const record = (isbn13: string, title: string, author: string) =>
  bookRecord({ isbn13, title, authors: [author] });

const clicksOf = (bookId: number, destinationId: number, count: number): ClickRecord[] =>
  Array.from({ length: count }, () => ({
    bookId,
    destinationId,
    sfid: null,
    country: 'US',
    referrerHost: null,
    at: new Date('2026-11-30T10:00:00Z'),
  }));

async function totals(db: Db): Promise<Record<number, number>> {
  const rows = await db.selectFrom('book_clicks').select(['book_id', 'clicks']).execute();
  return Object.fromEntries(rows.map((row) => [Number(row.book_id), Number(row.clicks)]));
}

/** Each book's click total, kept by the click writer, is what search ranks readers' choices by. */
describeEachDialect('book click totals', (context) => {
  let t: TestApp;
  let destinationId: number;
  before(async () => {
    // No answer cache: the second search must be ranked again, with the clicks.
    t = await startTestApp(context.store(), { SEARCH_CACHE_MS: '0' });
    const destination = await t.store.db.selectFrom('destinations').select('id').executeTakeFirstOrThrow();
    destinationId = Number(destination.id);
  });
  after(() => t.close());

  it('adds each batch to its books, over many statements, and a refused batch adds nothing', async () => {
    const db = t.store.db;
    await db.deleteFrom('book_clicks').execute();
    // 250 books in one batch: two statements of book totals.
    const many = Array.from({ length: 250 }, (_, n) => clicksOf(100_000 + n, destinationId, 1)).flat();
    await insertClicks(db, [...clicksOf(1, destinationId, 3), ...many, ...clicksOf(2, destinationId, 1)]);
    await insertClicks(db, clicksOf(1, destinationId, 2));
    let counted = await totals(db);
    assert.equal(counted[1], 5);
    assert.equal(counted[2], 1);
    assert.equal(counted[100_249], 1);
    assert.equal(Object.keys(counted).length, 252);

    const refused = { ...clicksOf(1, destinationId, 1)[0], destinationId: null } as unknown as ClickRecord;
    await assert.rejects(insertClicks(db, [...clicksOf(1, destinationId, 4), refused]));
    counted = await totals(db);
    assert.equal(counted[1], 5, 'the clicks and their totals are one transaction');
  });

  it('ranks the book readers click ahead of an equal one', async () => {
    const lesser = await t.services.creator.createFromRecord(
      record('9780000000101', 'The Quiet Lighthouse', 'Ada Brennan'),
    );
    const clicked = await t.services.creator.createFromRecord(
      record('9780000000118', 'The Quiet Lighthouse', 'Ben Calloway'),
    );
    const order = async () =>
      (await t.services.search.search('the quiet lighthouse')).results.map((result) => result.record.isbn13);
    const before = await order();
    assert.deepEqual(new Set(before.slice(0, 2)), new Set([lesser.isbn13, clicked.isbn13]));
    const second = before[1] === clicked.isbn13 ? clicked : lesser;
    await insertClicks(t.store.db, clicksOf(second.id, destinationId, 40));
    assert.equal((await order())[0], second.isbn13);
  });
});
