import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { coverQuality, mergeRecords } from '../../src/catalog/chain.js';
import { type BookRecord, emptyRecord } from '../../src/catalog/types.js';

function record(source: string, fields: Partial<BookRecord>): BookRecord {
  return { ...emptyRecord(source, fields.title ?? ''), ...fields };
}

describe('mergeRecords', () => {
  it('takes single facts from the most trusted source that has them', () => {
    const merged = mergeRecords([
      record('openlibrary', { title: 'Use of Weapons', publisher: 'Orbit', pages: null }),
      record('googlebooks', {
        title: 'Use Of Weapons',
        publisher: 'Little, Brown',
        pages: 480,
        language: 'en',
      }),
    ]);
    assert.equal(merged.title, 'Use of Weapons');
    assert.equal(merged.publisher, 'Orbit');
    assert.equal(merged.pages, 480, 'a missing fact is filled from the next source');
    assert.equal(merged.language, 'en');
    assert.equal(merged.source, 'openlibrary+googlebooks');
  });

  it('prefers a title without series notes, and strips them when every title has them', () => {
    const clean = mergeRecords([
      record('a', { title: 'Catching Fire (The Hunger Games, #2)' }),
      record('b', { title: 'Catching Fire' }),
    ]);
    assert.equal(clean.title, 'Catching Fire');
    const stripped = mergeRecords([record('a', { title: 'Mort (Discworld, #4)' })]);
    assert.equal(stripped.title, 'Mort');
    assert.equal(mergeRecords([record('a', { title: '1984' })]).title, '1984');
  });

  it('skips empty titles of trusted sources', () => {
    assert.equal(mergeRecords([record('a', { title: '  ' }), record('b', { title: 'Dune' })]).title, 'Dune');
  });

  it('keeps the fullest author list, without duplicates', () => {
    const merged = mergeRecords([
      record('a', { title: 'Good Omens', authors: ['Terry Pratchett'] }),
      record('b', { title: 'Good Omens', authors: ['Terry Pratchett', 'Neil Gaiman', 'terry pratchett'] }),
    ]);
    assert.deepEqual(merged.authors, ['Terry Pratchett', 'Neil Gaiman']);
  });

  it('keeps the most precise date, ties to the most trusted', () => {
    const merged = mergeRecords([
      record('a', { title: 'T', publishedDate: '2008' }),
      record('b', { title: 'T', publishedDate: '2008-07-28' }),
      record('c', { title: 'T', publishedDate: '2009-01-01' }),
    ]);
    assert.equal(merged.publishedDate, '2008-07-28');
  });

  it('chooses a real cover image over placeholders and unverified ISBN covers', () => {
    const merged = mergeRecords([
      record('a', { title: 'T', coverUrl: 'https://example.org/images/nophoto.png' }),
      record('b', { title: 'T', coverUrl: 'https://covers.openlibrary.org/b/isbn/9780316030571-L.jpg' }),
      record('c', { title: 'T', coverUrl: 'https://books.google.com/books/content?id=x&img=1&zoom=1' }),
    ]);
    assert.equal(merged.coverUrl, 'https://books.google.com/books/content?id=x&img=1&zoom=1');
    const none = mergeRecords([record('a', { title: 'T', coverUrl: 'https://x.org/nophoto.gif' })]);
    assert.equal(none.coverUrl, null);
    assert.equal(coverQuality('https://covers.openlibrary.org/b/id/-1-L.jpg'), 0);
  });

  it('unites identifiers, the trusted source winning a conflict', () => {
    const merged = mergeRecords([
      record('a', { title: 'T', identifiers: { ol_edition: 'OL1M', asin: 'A1' } }),
      record('b', { title: 'T', identifiers: { google_volume: 'g1', asin: 'B2' } }),
    ]);
    assert.deepEqual(merged.identifiers, { ol_edition: 'OL1M', asin: 'A1', google_volume: 'g1' });
  });

  it('drops a subtitle the chosen title already carries and takes the work key from ids', () => {
    const merged = mergeRecords([
      record('a', { title: 'Sapiens: A Brief History of Humankind', identifiers: { ol_work: 'OL1W' } }),
      record('b', { title: 'Sapiens', subtitle: 'A Brief History of Humankind' }),
    ]);
    assert.equal(merged.subtitle, null);
    assert.equal(merged.workKey, 'OL1W');
  });

  it('refuses an empty list', () => {
    assert.throws(() => mergeRecords([]));
  });
});
