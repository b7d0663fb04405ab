import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseRetailerUrl } from '../../src/domain/retailer-urls/index.js';

const parse = (url: string) => {
  const parsed = parseRetailerUrl(url);
  assert.ok(parsed, url);
  return parsed;
};
const isbnOf = (url: string) => parse(url).isbn?.isbn13 ?? null;

describe('any ISBN anywhere in a URL', () => {
  it('reads search pages, old shop shapes and API URLs on known and unknown hosts', () => {
    const cases: [string, string][] = [
      ['https://www.amazon.com/s?i=stripbooks&rh=p_66%3A3540009787&field-isbn=3540009787', '9783540009788'],
      ['https://www.waterstones.com/books/search/term/0071148167', '9780071148160'],
      ['https://isbndb.com/search/all?query=9780141439518', '9780141439518'],
      ['https://app.thestorygraph.com/browse?search_term=9791032705469', '9791032705469'],
      [
        'https://www.whsmith.co.uk/pws/ProductDetails.ice?ProductID=9780261103344&keywords=x',
        '9780261103344',
      ],
      ['https://www.dymocks.com.au/the-hobbit-by-j-r-r-tolkien-9780261103344', '9780261103344'],
      ['https://www.powells.com/book/-9780547928227', '9780547928227'],
      ['https://www.booksamillion.com/p/9780439023481', '9780439023481'],
      ['https://openlibrary.org/isbn/9780140328721.json', '9780140328721'],
      ['https://openlibrary.org/isbn/0140328726.json', '9780140328721'],
      ['https://shop.example-books.net/product/978-0-14-143951-8', '9780141439518'],
      ['https://libraryshop.example/item#ean=9780141439518', '9780141439518'],
      ['https://books.example.org/catalogue/search?q=0-14-143951-3', '9780141439518'],
    ];
    for (const [url, isbn13] of cases) {
      const parsed = parse(url);
      assert.equal(parsed.isbn?.isbn13, isbn13, url);
      assert.equal(parsed.kind, 'book', url);
    }
  });

  it('keeps out what is not an ISBN', () => {
    // A DVD's ASIN, a NOOK id, an ISMN (printed music), an Audible ASIN on Amazon, a bare shop id.
    assert.equal(isbnOf('https://www.amazon.com/Lord-Rings-Extended-DVD/dp/B00005JKZY'), null);
    assert.equal(parse('https://www.amazon.com/Lord-Rings-Extended-DVD/dp/B00005JKZY').kind, 'not_book');
    assert.equal(
      isbnOf('https://www.barnesandnoble.com/w/the-book-author/1100000000?ean=2940012345678'),
      null,
    );
    assert.equal(isbnOf('https://sheetmusic.example/score/9790060115615'), null);
    assert.equal(isbnOf('https://www.amazon.com/The-Hobbit-Audible-Audiobook/dp/1603935606'), null);
    assert.equal(isbnOf('https://shop.example/product/0140328726'), null);
    // A search word that is no ISBN stays words; a checksum failure is no ISBN.
    assert.equal(isbnOf('https://isbndb.com/search/all?query=9780141439519'), null);
  });

  it('never lets an ISBN elsewhere in the URL turn a non-book product into a book', () => {
    const dvd = parse('https://www.amazon.com/Hobbit-Blu-ray/dp/B00BEZTMQ8?keywords=9780547928227');
    assert.equal(dvd.kind, 'not_book');
    assert.equal(dvd.isbn, null);
    const toy = parse('https://www.fishpond.co.nz/Toys/Lego-Hobbit/5702017419312?ean=9780547928227');
    assert.equal(toy.kind, 'not_book');
  });

  it('names no book when one tier holds two different ISBNs', () => {
    assert.equal(isbnOf('https://shop.example/compare/9780141439518/9780547928227'), null);
    // A named ISBN parameter outranks ISBNs in other places.
    assert.equal(isbnOf('https://shop.example/compare/9780141439518?isbn=9780547928227'), '9780547928227');
  });

  it('offers the words of a search page or a title-like slug for the search a reader lands on', () => {
    assert.equal(parse('https://www.amazon.com/s?k=the+hobbit&i=stripbooks').titleWords, 'the hobbit');
    assert.equal(
      parse('https://unknown-shop.example/books/the-wind-in-the-willows').titleWords,
      'the wind in the willows',
    );
    assert.equal(parse('https://unknown-shop.example/about').titleWords, null);
  });

  it('tells the author apart when the URL does', () => {
    const hive = parse('https://www.hive.co.uk/Product/Kenneth-Grahame/The-Wind-in-the-Willows/123456');
    assert.deepEqual([hive.titleWords, hive.authorWords], ['The Wind in the Willows', 'Kenneth Grahame']);
    const thrift = parse('https://www.thriftbooks.com/w/the-wind-in-the-willows_kenneth-grahame/123456/');
    assert.deepEqual(
      [thrift.titleWords, thrift.authorWords],
      ['the wind in the willows kenneth grahame', 'kenneth grahame'],
    );
  });
});

describe('provider-only URL fixture (test/fixtures/eval/urls-providers.jsonl)', () => {
  it('parses every labelled ISBN and identifier', () => {
    const text = readFileSync(new URL('../fixtures/eval/urls-providers.jsonl', import.meta.url), 'utf8');
    const rows = text
      .split('\n')
      .filter((line) => line.trim())
      .map(
        (line) =>
          JSON.parse(line) as {
            url: string;
            expect: { isbn13?: string; identifiers?: Record<string, string> };
          },
      );
    assert.ok(rows.length >= 25);
    for (const row of rows) {
      const parsed = parse(row.url);
      assert.equal(parsed.isbn?.isbn13 ?? null, row.expect.isbn13 ?? null, row.url);
      for (const [scheme, value] of Object.entries(row.expect.identifiers ?? {})) {
        assert.equal(parsed.identifiers[scheme], value, row.url);
      }
    }
  });
});
