import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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
