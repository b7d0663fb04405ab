import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvRowParser, splitSeries } from '../../src/catalog/import/csv.js';
import { gutenbergAuthors, gutenbergName, gutenbergRowParser } from '../../src/catalog/import/gutenberg.js';
import { parseJsonLine } from '../../src/catalog/import/jsonl.js';
import { parseOpenLibraryLine } from '../../src/catalog/import/openlibrary.js';
import type { ParseResult } from '../../src/catalog/import/types.js';
import type { NewCatalogEntryRow } from '../../src/store/schema.js';

const context = { coversBaseUrl: 'https://covers.test', now: '2024-01-01T00:00:00.000Z' };

function entry(result: ParseResult): NewCatalogEntryRow {
  if (!result.ok) assert.fail(`expected an entry, got skip ${result.reason}`);
  return result.entry;
}
const reason = (result: ParseResult) => (result.ok ? 'ok' : result.reason);

describe('Open Library edition lines', () => {
  const line = (type: string, json: object) => `${type}\t/books/OL1M\t1\t2020-01-01\t${JSON.stringify(json)}`;
  it('maps an edition with identifiers, cover and work', () => {
    const row = entry(
      parseOpenLibraryLine(
        line('/type/edition', {
          key: '/books/OL7353617M',
          title: 'Fantastic Mr. Fox',
          isbn_10: ['0140328726'],
          covers: [-1, 8739161],
          authors: [{ key: '/authors/OL34184A' }],
          works: [{ key: '/works/OL45804W' }],
          by_statement: 'by Roald Dahl.',
          physical_format: 'Paperback',
          publish_date: 'October 1, 1988',
          number_of_pages: 96,
          ocaid: 'fantasticmrfox00',
          identifiers: { goodreads: ['1507552'], amazon: ['B001'] },
          languages: [{ key: '/languages/eng' }],
        }),
        context,
      ),
    );
    assert.equal(row.entry_key, 'isbn:9780140328721');
    assert.equal(row.cover_url, 'https://covers.test/b/id/8739161-L.jpg');
    assert.equal(row.authors, '["Roald Dahl"]');
    assert.equal(row.format, 'paperback');
    assert.equal(row.published_date, '1988-10-01');
    assert.equal(row.language, 'en');
    assert.deepEqual(JSON.parse(row.identifiers ?? '{}'), {
      goodreads: '1507552',
      asin: 'B001',
      ol_edition: 'OL7353617M',
      ol_work: 'OL45804W',
      ol_authors: 'OL34184A',
      ia: 'fantasticmrfox00',
    });
  });
  it('leaves names empty when only author keys are known', () => {
    const row = entry(
      parseOpenLibraryLine(
        line('/type/edition', { title: 'T', isbn_13: ['9780306406157'], authors: [] }),
        context,
      ),
    );
    assert.equal(row.authors, '[]');
  });
  it('skips what is not an edition, has no ISBN or no title, or is broken', () => {
    assert.equal(reason(parseOpenLibraryLine(line('/type/work', { title: 'W' }), context)), 'not_an_edition');
    assert.equal(
      reason(parseOpenLibraryLine(line('/type/edition', { title: 'T' }), context)),
      'no_valid_isbn',
    );
    assert.equal(
      reason(parseOpenLibraryLine(line('/type/edition', { isbn_13: ['9780306406157'] }), context)),
      'missing_title',
    );
    assert.equal(
      reason(parseOpenLibraryLine('/type/edition\t/books/OL1M\t1\t2020\t{oops', context)),
      'invalid_json',
    );
    assert.equal(reason(parseOpenLibraryLine('just one column', context)), 'malformed_row');
  });
});

describe('CSV rows', () => {
  const goodreads = ['isbn', 'isbn13', 'authors', 'original_publication_year', 'original_title', 'title'];
  const goodreadsRow = csvRowParser([...goodreads, 'Ratings_Count', 'image_url'], context);
  it('reads the Goodreads quirks: short ISBN-10, float ISBN-13, series note, float year', () => {
    const row = entry(
      goodreadsRow([
        '991273818',
        '9.78099127381e+12',
        'Rosalind Tarrant, Émile Danvers',
        '1997.0',
        'Pemberton Finch and the Midnight Atlas',
        'Pemberton Finch and the Moonlit Atlas (Pemberton Finch, #1)',
        '2987113',
        'https://covers.example.org/books/1474000002m/5100002.jpg',
      ]),
    );
    assert.equal(row.entry_key, 'isbn:9780991273812');
    assert.equal(row.title, 'Pemberton Finch and the Moonlit Atlas');
    assert.equal(row.published_date, '1997');
    assert.equal(row.popularity, 2987113);
    assert.equal(row.authors, '["Rosalind Tarrant","Émile Danvers"]');
    const identifiers = JSON.parse(row.identifiers ?? '{}');
    assert.equal(identifiers.series, 'Pemberton Finch, #1');
    assert.equal(identifiers.original_title, 'Pemberton Finch and the Midnight Atlas');
  });
  it('never uses the float ISBN-13 when the ISBN-10 is missing', () => {
    assert.equal(
      reason(goodreadsRow(['', '9.78099127445e+12', 'Tamsin Hale', '2012.0', '', 'TWOSS', '1', ''])),
      'no_valid_isbn',
    );
  });
  it('maps other header spellings case-insensitively', () => {
    const parse = csvRowParser(
      ['ISBN-13', 'Book Title', 'Author', 'Publisher', 'Published Date', 'Cover URL'],
      context,
    );
    const row = entry(
      parse(['9780306406157', 'Signals', 'Austen, Jane', 'Acme', '2001-05-05', 'https://x.test/c.jpg']),
    );
    assert.equal(row.authors, '["Jane Austen"]');
    assert.equal(row.publisher, 'Acme');
    assert.equal(row.cover_url, 'https://x.test/c.jpg');
  });
  it('keeps a title that only looks like it has a series note', () => {
    assert.deepEqual(splitSeries('(#1)'), { title: '(#1)', series: null });
    assert.deepEqual(splitSeries('Dune (Dune Chronicles #1)'), {
      title: 'Dune',
      series: 'Dune Chronicles #1',
    });
  });
});

describe('JSONL lines', () => {
  it('accepts our field names with hyphenated ISBNs and string authors', () => {
    const row = entry(
      parseJsonLine('{"isbn":"0-306-40615-2","title":"S","authors":"Jane Doe","pages":"12"}', context),
    );
    assert.equal(row.isbn13, '9780306406157');
    assert.equal(row.authors, '["Jane Doe"]');
    assert.equal(row.pages, 12);
    assert.equal(row.source, 'jsonl');
  });
  it('skips broken lines and non-objects', () => {
    assert.equal(reason(parseJsonLine('nope', context)), 'invalid_json');
    assert.equal(reason(parseJsonLine('[1]', context)), 'invalid_json');
  });
});

describe('Project Gutenberg catalogue rows', () => {
  const header = [
    'Text#',
    'Type',
    'Issued',
    'Title',
    'Language',
    'Authors',
    'Subjects',
    'LoCC',
    'Bookshelves',
  ];
  const parse = gutenbergRowParser(header, context);
  it('normalises names: order, life dates, roles, expansions', () => {
    assert.equal(gutenbergName('Austen, Jane, 1775-1817'), 'Jane Austen');
    assert.equal(gutenbergName('Homer, 751? BCE-651? BCE'), 'Homer');
    assert.equal(gutenbergName('Lewis, C. S. (Clive Staples), 1898-1963'), 'C. S. Lewis');
    assert.equal(
      gutenbergName('King, Martin Luther, Jr., 1929-1968 [Contributor]'),
      'Martin Luther King, Jr.',
    );
    assert.deepEqual(gutenbergAuthors('Tenniel, John, 1820-1914 [Illustrator]; Carroll, Lewis, 1832-1898'), [
      'Lewis Carroll',
      'John Tenniel',
    ]);
  });
  it('keys entries by Text# and splits a two-line title', () => {
    const row = entry(
      parse(['30', 'Text', '1994-01-01', 'Declaration\nWith Notes', 'en', 'Jefferson, Thomas', '', '', '']),
    );
    assert.equal(row.entry_key, 'gutenberg:30');
    assert.equal(row.isbn13, null);
    assert.equal(row.subtitle, 'With Notes');
    assert.equal(row.format, 'ebook');
    assert.deepEqual(JSON.parse(row.identifiers ?? '{}'), { gutenberg: '30' });
  });
  it('skips sound recordings and rows without a title', () => {
    assert.equal(reason(parse(['10000', 'Sound', '', 'Reading', 'en', '', '', '', ''])), 'not_a_text');
    assert.equal(reason(parse(['1080', 'Text', '', '', 'en', '', '', '', ''])), 'missing_title');
  });
});
