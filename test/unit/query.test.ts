import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexTokens, parseQuery, type TextQuery } from '../../src/domain/query.js';

function text(input: string): TextQuery {
  const parsed = parseQuery(input);
  assert.equal(parsed.kind, 'text', input);
  return parsed as TextQuery;
}

describe('parseQuery', () => {
  it('reads ISBN-10 and ISBN-13 in any spacing or hyphenation', () => {
    for (const input of [
      '9780439023481',
      '978-0-439-02348-1',
      ' 978 0439 023481 ',
      '0-439-02348-3',
      'ISBN 0439023483',
      'isbn: 978-0439023481',
    ]) {
      const parsed = parseQuery(input);
      assert.equal(parsed.kind, 'isbn', input);
      assert.equal(parsed.kind === 'isbn' && parsed.isbn.isbn13, '9780439023481', input);
    }
  });

  it('treats a number with a wrong check digit as text, and 1984 as a title', () => {
    assert.equal(parseQuery('9780439023482').kind, 'text');
    assert.deepEqual(text('1984').terms, ['1984']);
    assert.equal(text('1984').seriesNumber, null);
  });

  it('detects URLs for the resolve feature', () => {
    assert.equal(parseQuery('https://www.amazon.com/dp/0439023483').kind, 'url');
    assert.equal(parseQuery('www.goodreads.com/book/show/2767052').kind, 'url');
    assert.equal(parseQuery('bookshop.org/p/books/dune/123').kind, 'url');
  });

  it('answers empty for blank or punctuation-only input', () => {
    assert.equal(parseQuery('   ').kind, 'empty');
    assert.equal(parseQuery('?!').kind, 'empty');
  });

  it('splits "title by author" and keeps "by" inside titles as a word', () => {
    const q = text('The Hobbit by J.R.R. Tolkien');
    assert.deepEqual(q.splits[1], { title: 'the hobbit', author: 'j r r tolkien' });
    assert.deepEqual(q.terms, ['the', 'hobbit', 'j', 'r', 'r', 'tolkien']);
    assert.ok(text('Stand by Me').splits.length >= 1);
  });

  it('offers both readings of "a: b"', () => {
    const q = text('Tolkien: The Hobbit');
    assert.deepEqual(q.splits.slice(1), [
      { title: 'the hobbit', author: 'tolkien' },
      { title: 'tolkien', author: 'the hobbit' },
    ]);
  });

  it('reads series numbers in several spellings', () => {
    assert.equal(text('hunger games 2').seriesNumber, 2);
    assert.deepEqual(text('hunger games 2').terms, ['hunger', 'games']);
    assert.equal(text('Dune book 3').seriesNumber, 3);
    assert.equal(text('harry potter #4').seriesNumber, 4);
    assert.equal(text('Wheel of Time vol. 5').seriesNumber, 5);
    assert.equal(text('Fahrenheit 451').seriesNumber, null);
  });

  it('reads volume words of the UI languages and English number words', () => {
    const cases: [string, string, number][] = [
      ['throne of glass book three', 'throne of glass', 3],
      ['wheel of time volume 2', 'wheel of time', 2],
      ['discworld no. 4', 'discworld', 4],
      ['Die Tribute von Panem Band 2', 'die tribute von panem', 2],
      ['harry potter Bd. 3', 'harry potter', 3],
      ['les rois maudits tome 3', 'les rois maudits', 3],
      ['asterix t. 5', 'asterix', 5],
      ['el cementerio de los libros olvidados libro 2', 'el cementerio de los libros olvidados', 2],
      ['la saga de los longevos tomo 2', 'la saga de los longevos', 2],
      ['de zeven zussen deel 3', 'de zeven zussen', 3],
      ['o guia do mochileiro livro 2', 'o guia do mochileiro', 2],
      ['進撃の巨人 3巻', '進撃の巨人', 3],
      ['ワンピース 第10巻', 'ワンピース', 10],
    ];
    for (const [query, terms, volume] of cases) {
      assert.equal(text(query).seriesNumber, volume, query);
      assert.equal(text(query).terms.join(' '), terms, query);
    }
    // A number word without a volume word is a title's own ("The Two Towers").
    assert.equal(text('the two towers').seriesNumber, null);
  });

  it('folds diacritics and punctuation and keeps quoted phrases', () => {
    const q = text('"Cien años" de soledad, García Márquez!');
    assert.deepEqual(q.phrases, ['cien anos']);
    assert.equal(q.key, 'cien anos de soledad garcia marquez');
  });
});

describe('indexTokens', () => {
  it('splits as the database tokenisers do, apostrophes included', () => {
    assert.deepEqual(indexTokens("Sorcerer's Stone — Émile"), ['sorcerer', 's', 'stone', 'emile']);
  });
});
