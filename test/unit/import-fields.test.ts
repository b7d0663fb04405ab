import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { namesFromByStatement, splitAuthors } from '../../src/catalog/import/authors.js';
import { bookFormat, coverUrl, isbnFrom, isoDate, languageCode } from '../../src/catalog/import/fields.js';

describe('import field helpers', () => {
  it('restores leading zeros of an ISBN-10 and verifies the checksum', () => {
    assert.deepEqual(isbnFrom('991273648'), { isbn13: '9780991273645', isbn10: '0991273648' });
    assert.equal(isbnFrom('991274192'), null, 'padded but checksum fails');
    assert.equal(isbnFrom('978-0-306-40615-7')?.isbn13, '9780306406157');
  });
  it('refuses ISBNs a spreadsheet turned into floats', () => {
    assert.equal(isbnFrom('9.78099127364e+12'), null);
    assert.equal(isbnFrom('51290038812.0'), null);
    assert.equal(isbnFrom('9780991273645.0'), null);
  });
  it('reduces dump dates to ISO 8601 at the precision known', () => {
    assert.equal(isoDate('2008.0'), '2008');
    assert.equal(isoDate('December 1993'), '1993-12');
    assert.equal(isoDate('October 1, 1988'), '1988-10-01');
    assert.equal(isoDate('5 May 2001'), '2001-05-05');
    assert.equal(isoDate('2001-05-05T10:00:00'), '2001-05-05');
    assert.equal(isoDate('c1995.'), '1995');
    assert.equal(isoDate('-720.0'), null);
    assert.equal(isoDate(''), null);
  });
  it('maps language codes to ISO 639-1', () => {
    assert.equal(languageCode('eng'), 'en');
    assert.equal(languageCode('en-US'), 'en');
    assert.equal(languageCode('/languages/fre'), 'fr');
    assert.equal(languageCode('en; fr'), 'en');
    assert.equal(languageCode(''), null);
  });
  it('recognises physical formats, most specific first', () => {
    assert.equal(bookFormat('Mass Market Paperback'), 'mass-market');
    assert.equal(bookFormat('Large Print Hardcover'), 'large-print');
    assert.equal(bookFormat('Audio CD'), 'audiobook');
    assert.equal(bookFormat('Paperback'), 'paperback');
    assert.equal(bookFormat('Spiral-bound'), 'other');
    assert.equal(bookFormat(undefined), null);
  });
  it('treats placeholder images as no cover', () => {
    assert.equal(coverUrl('https://covers.example.org/assets/nophoto/book/111x148.png'), null);
    assert.equal(coverUrl('not a url'), null);
    assert.equal(coverUrl('https://example.org/c.jpg'), 'https://example.org/c.jpg');
  });
  it('splits author cells without breaking an inverted name', () => {
    assert.deepEqual(splitAuthors('Rosalind Tarrant, Émile Danvers'), ['Rosalind Tarrant', 'Émile Danvers']);
    assert.deepEqual(splitAuthors('Austen, Jane'), ['Jane Austen']);
    assert.deepEqual(splitAuthors('Austen, Jane; Brontë, Charlotte'), ['Jane Austen', 'Charlotte Brontë']);
    assert.deepEqual(splitAuthors(['A. Writer', ' ', 'A. Writer']), ['A. Writer']);
  });
  it('takes author names from a by-statement only when it reads like names', () => {
    assert.deepEqual(namesFromByStatement('by Fyodor Dostoevsky ; translated by Constance Garnett'), [
      'Fyodor Dostoevsky',
    ]);
    assert.deepEqual(namesFromByStatement('N.V. Kasatkin, V.N. Kasatkina.'), [
      'N.V. Kasatkin',
      'V.N. Kasatkina',
    ]);
    assert.deepEqual(namesFromByStatement('[par] André Gide.'), ['André Gide']);
    assert.deepEqual(namesFromByStatement('von Ludolf Müller. Mit einer Beilage: "Ein Briefwechsel"'), []);
  });
});
