import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { type ClickRecord, insertClicks } from '../../src/store/click-writes.js';
import type { Db } from '../../src/store/schema.js';
import { familiesWithClicks } from '../../src/store/search/rows.js';
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

  it("reads the leading works' editions and every saved book's total in one go", async () => {
    const first = await t.services.creator.createFromRecord(
      record('9780000000125', 'The Salt Orchard', 'Cora Lindqvist'),
    );
    // Another edition of the same work (same match key), found only as family.
    const second = await t.services.creator.createFromRecord(
      record('9780000000132', 'The Salt Orchard', 'Cora Lindqvist'),
    );
    const elsewhere = await t.services.creator.createFromRecord(
      record('9780000000149', 'A Field of Wrens', 'Dana Okafor'),
    );
    await insertClicks(t.store.db, [
      ...clicksOf(second.id, destinationId, 7),
      ...clicksOf(elsewhere.id, destinationId, 2),
    ]);
    const key = await t.store.db
      .selectFrom('books')
      .select('match_key')
      .where('id', '=', first.id)
      .executeTakeFirstOrThrow();
    assert.ok(key.match_key);

    const families = await familiesWithClicks(t.store, [key.match_key], [first.id, elsewhere.id]);
    assert.deepEqual(families.books.map((row) => Number(row.id)).sort(), [first.id, second.id].sort());
    assert.deepEqual(
      families.books.map((row) => row.title),
      ['The Salt Orchard', 'The Salt Orchard'],
    );
    assert.equal(families.clicks.get(second.id), 7, 'a family edition nobody found is counted');
    assert.equal(families.clicks.get(elsewhere.id), 2, 'a found book outside the family is counted');
    assert.equal(families.clicks.has(first.id), false);
    // Each saved book was filed in the catalog too; the rows are the tables' own, on either database.
    assert.deepEqual(families.entries.map((row) => row.isbn13).sort(), ['9780000000125', '9780000000132']);
    assert.equal(families.entries[0]?.authors, '["Cora Lindqvist"]');
    assert.equal(typeof families.entries[0]?.id, 'number');

    const none = await familiesWithClicks(t.store, [], [elsewhere.id]);
    assert.deepEqual(none.books, []);
    assert.equal(none.clicks.get(elsewhere.id), 2);
  });
});
