import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LocalCatalogProvider } from '../../src/catalog/local.js';
import { emptyRecord } from '../../src/catalog/types.js';
import type { BookRecord } from '../../src/domain/book-record.js';
import { BookCreator } from '../../src/services/book-creator.js';
import { describeEachDialect } from '../support/databases.js';

function record(isbn13: string | null, overrides: Partial<BookRecord> = {}): BookRecord {
  return { ...emptyRecord('test', 'The Quiet Orchard'), isbn13, authors: ['Mara Quill'], ...overrides };
}

/**
 * Books created on demand (SPEC 3): the slug, the work and the canonical edition are chosen while other
 * creators (other processes, other instances) may be creating the same book or the same slug.
 */
describeEachDialect('book creation', (context) => {
  /** A creator per simulated process: each has its own in-process sharing of concurrent first visits. */
  const creator = () => {
    const db = context.store().db;
    return new BookCreator(context.store(), new LocalCatalogProvider(db), null);
  };
  const works = async () =>
    context
      .store()
      .db.selectFrom('works')
      .select(['id', 'work_key', 'canonical_book_id'])
      .orderBy('id')
      .execute();

  it('gives editions of one work the title slug, then each its ISBN; the first created leads the work', async () => {
    const first = await creator().createFromRecord(
      record('9780000000002', { workKey: '/works/OL1W', identifiers: { goodreads: '111' } }),
    );
    // An identifier already held by the first edition stays with it; its own is filed.
    const second = await creator().createFromRecord(
      record('9780000000019', { workKey: '/works/OL1W', identifiers: { goodreads: '111', oclc: '222' } }),
    );
    // No work key: joined to the work of the edition with the same title and author.
    const third = await creator().createFromRecord(record('9780000000026'));
    assert.equal(first.slug, 'the-quiet-orchard-mara-quill');
    assert.equal(second.slug, 'the-quiet-orchard-mara-quill-9780000000019');
    assert.equal(third.slug, 'the-quiet-orchard-mara-quill-9780000000026');
    const [work, ...others] = await works();
    assert.deepEqual(others, []);
    assert.equal(work?.work_key, '/works/OL1W');
    assert.equal(Number(work?.canonical_book_id), first.id);
    const identifiers = await context
      .store()
      .db.selectFrom('book_identifiers')
      .select(['book_id', 'scheme', 'value'])
      .orderBy('scheme')
      .execute();
    assert.deepEqual(
      identifiers.map((row) => [Number(row.book_id), row.scheme, row.value]),
      [
        [first.id, 'goodreads', '111'],
        [second.id, 'oclc', '222'],
      ],
    );
    assert.deepEqual(
      [first, second, third].map((book) => book.workId),
      [work?.id, work?.id, work?.id].map(Number),
    );
  });

  it('numbers the slugs of books without an ISBN', async () => {
    const slugs = [];
    for (let i = 0; i < 3; i++) {
      slugs.push((await creator().createFromRecord(record(null, { title: 'Untitled Notes' }))).slug);
    }
    assert.deepEqual(slugs, [
      'untitled-notes-mara-quill',
      'untitled-notes-mara-quill-1',
      'untitled-notes-mara-quill-2',
    ]);
  });

  it('lets concurrent creators of one slug each find a free one, on one work, with one canonical edition', async () => {
    const isbns = ['9781000000001', '9781000000018', '9781000000025', '9781000000032', '9781000000049'];
    const books = await Promise.all(
      isbns.map((isbn13) =>
        creator().createFromRecord(record(isbn13, { title: 'Salt Lantern', workKey: '/works/OL2W' })),
      ),
    );
    assert.equal(new Set(books.map((book) => book.slug)).size, isbns.length);
    assert.ok(books.some((book) => book.slug === 'salt-lantern-mara-quill'));
    const work = (await works()).filter((row) => row.work_key === '/works/OL2W');
    assert.equal(work.length, 1);
    assert.ok(books.every((book) => book.workId === Number(work[0]?.id)));
    assert.ok(books.some((book) => book.id === Number(work[0]?.canonical_book_id)));
  });

  it('gives concurrent creators of one ISBN the same book and leaves no work behind for the losers', async () => {
    const before = (await works()).length;
    const books = await Promise.all(
      Array.from({ length: 4 }, () =>
        creator().createFromRecord(record('9782000000000', { title: 'Ash Meadow' })),
      ),
    );
    assert.equal(new Set(books.map((book) => book.id)).size, 1);
    const rows = await works();
    assert.equal(rows.length, before + 1);
    assert.equal(Number(rows.at(-1)?.canonical_book_id), books[0]?.id);
  });
});
