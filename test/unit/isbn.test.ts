import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as ISBN from 'isbn3';
import { findIsbnInText, parseIsbn } from '../../src/domain/isbn.js';

describe('parseIsbn', () => {
  it('accepts ISBN-13 with hyphens and spaces and derives the ISBN-10', () => {
    assert.deepEqual(parseIsbn('978-0-439-02348-1'), { isbn13: '9780439023481', isbn10: '0439023483' });
    assert.deepEqual(parseIsbn(' 978 0439 023481 '), { isbn13: '9780439023481', isbn10: '0439023483' });
  });
  it('accepts ISBN-10, including an X check digit', () => {
    assert.deepEqual(parseIsbn('0439023483'), { isbn13: '9780439023481', isbn10: '0439023483' });
    assert.equal(parseIsbn('080442957x')?.isbn13, '9780804429573');
  });
  it('derives the ISBN-10 isbn3 knows from its registration ranges, without looking them up', () => {
    let seed = 12;
    const digit = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return String(seed % 10);
    };
    let known = 0;
    for (let n = 0; n < 20_000; n++) {
      let first12 = n % 2 === 0 ? '978' : '979';
      while (first12.length < 12) first12 += digit();
      let sum = 0;
      for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * Number(first12[i]);
      const isbn13 = first12 + String((10 - (sum % 10)) % 10);
      const ranged = ISBN.parse(isbn13);
      if (!ranged) continue;
      known++;
      assert.deepEqual(parseIsbn(isbn13), { isbn13, isbn10: ranged.isbn10 ?? null }, isbn13);
    }
    assert.ok(known > 5000, `${known} ISBNs in isbn3's ranges`);
  });

  it('gives 979 ISBNs no ISBN-10', () => {
    assert.deepEqual(parseIsbn('979-8-88645-174-0'), { isbn13: '9798886451740', isbn10: null });
  });
  it('rejects bad check digits and malformed input', () => {
    for (const bad of ['9780439023482', '0439023484', '12345', 'abcdefghij', '9770439023481', '']) {
      assert.equal(parseIsbn(bad), null, bad);
    }
  });
  it('finds an ISBN inside a URL', () => {
    assert.equal(findIsbnInText('https://example.com/book/9780439023481?ref=x')?.isbn13, '9780439023481');
    assert.equal(findIsbnInText('no isbn here 12345'), null);
  });
});
