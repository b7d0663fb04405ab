import assert from 'node:assert/strict';
import { it } from 'node:test';
import { LocalCatalogProvider } from '../../src/catalog/local.js';
import { emptyRecord } from '../../src/catalog/types.js';
import type { BookRecord } from '../../src/domain/book-record.js';
import { BookCreator } from '../../src/services/book-creator.js';
import { describeEachDialect } from '../support/databases.js';
import { addCatalogEntry } from '../support/factories.js';

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

  it('looks past the first sixteen slugs when every one of them is taken', async () => {
    const slugs = [];
    for (let i = 0; i < 17; i++) {
      slugs.push((await creator().createFromRecord(record(null, { title: 'Crowded Shelf' }))).slug);
    }
    assert.equal(new Set(slugs).size, 17);
    assert.equal(slugs[0], 'crowded-shelf-mara-quill');
    assert.equal(slugs[15], 'crowded-shelf-mara-quill-15');
    assert.equal(slugs[16], 'crowded-shelf-mara-quill-16');
  });

  it('joins the work of its own work key before the work of an edition with the same title and author', async () => {
    const sibling = await creator().createFromRecord(record('9783000000009', { title: 'Tin Harbour' }));
    const keyed = await creator().createFromRecord(
      record('9783000000016', { title: 'Tin Harbour, Revised', workKey: '/works/OL3W' }),
    );
    assert.notEqual(keyed.workId, sibling.workId);
    const edition = await creator().createFromRecord(
      record('9783000000023', { title: 'Tin Harbour', workKey: '/works/OL3W' }),
    );
    assert.equal(edition.workId, keyed.workId);
    const unkeyed = await creator().createFromRecord(record('9783000000030', { title: 'Tin Harbour' }));
    assert.equal(unkeyed.workId, sibling.workId, 'without a key: the first edition of the title and author');
  });

  it('files the free copies that public-domain catalog entries of its title and author confirm', async () => {
    const store = context.store();
    const title = 'The Lantern Keeper';
    // Entries of the book's title and author: [source, scheme, value, popularity].
    const entries = [
      ['gutenberg', 'gutenberg', '901', 5],
      ['gutenberg', 'gutenberg', '902', 9],
      ['standard_ebooks', 'standard_ebooks', 'mara-quill/the-lantern-keeper', 0],
      // Another source's entry confirms nothing, whatever identifiers it holds.
      ['test', 'librivox', '77', 50],
    ] as const;
    for (const [source, scheme, value, popularity] of entries) {
      await addCatalogEntry(store, {
        title,
        authors: ['Mara Quill'],
        source,
        entryKey: `${source}:${value}`,
        identifiers: { [scheme]: value },
        popularity,
      });
    }
    const book = await creator().createFromRecord(
      record('9784000000008', { title, identifiers: { standard_ebooks: 'own-record' } }),
    );
    const filed = await store.db
      .selectFrom('book_identifiers')
      .select(['scheme', 'value'])
      .where('book_id', '=', book.id)
      .orderBy('scheme')
      .execute();
    assert.deepEqual(
      filed.map((row) => [row.scheme, row.value]),
      [
        ['gutenberg', '902'],
        ['standard_ebooks', 'own-record'],
      ],
      'the most popular entry of a scheme wins; the record keeps its own identifier',
    );
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
